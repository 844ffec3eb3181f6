// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emulated NPU: the command processor's command checker.  The rules the
 * device applies to every command it fetches (each copied out of the ring
 * first), kept free of device state so KUnit can test them: payload
 * validation, WAIT_VALUE conditions, command deadlines and the AI-core
 * scheduler's policy.  The copy formats' own rules are in
 * ascend_hw_rules.h.
 */

#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "ascend_emu.h"
#include "ascend_hw.h"

/*
 * Is the payload past the first @used bytes zero?  Word by word, inline:
 * a call of memchr_inv() cost more than the loop under emulation, and
 * every command but a launch has its tail checked.
 */
static __always_inline bool ascend_tail_zero(const struct ascend_cmd *cmd,
					     size_t used)
{
	size_t i = used;
	u64 acc = 0, w;

	for (; i % 8 && i < sizeof(cmd->raw); i++)
		acc |= cmd->raw[i];
	for (; i + 8 <= sizeof(cmd->raw); i += 8) {
		memcpy(&w, cmd->raw + i, sizeof(w));
		acc |= w;
	}
	for (; i < sizeof(cmd->raw); i++)
		acc |= cmd->raw[i];
	return !acc;
}

/* [a, a + size) must not wrap around the address space. */
static bool ascend_range_ok(u64 a, u64 size)
{
	u64 end;

	return size && !check_add_overflow(a, size, &end);
}

u32 ascend_cmd_check(const struct ascend_cmd *cmd)
{
	const u32 bad = ASCEND_FAULT_BAD_COMMAND;

	if (cmd->flags || cmd->reserved)
		return bad;

	switch (cmd->opcode) {
	case ASCEND_CMD_NOP:
		return ascend_tail_zero(cmd, 0) ? 0 : bad;

	case ASCEND_CMD_LAUNCH: {
		const struct ascend_cmd_launch *l = &cmd->launch;

		/* the kernel table's own checks follow in the backend */
		if (!l->num_blocks || l->args_size > ASCEND_LAUNCH_ARGS_MAX)
			return bad;
		return 0;
	}

	case ASCEND_CMD_COPY: {
		const struct ascend_cmd_copy *c = &cmd->copy;

		if (!ascend_tail_zero(cmd, sizeof(*c)) ||
		    !ascend_range_ok(c->dst, c->size) ||
		    !ascend_range_ok(c->src, c->size))
			return bad;
		/* no overlap */
		if (c->dst < c->src + c->size && c->src < c->dst + c->size)
			return bad;
		return 0;
	}

	case ASCEND_CMD_FILL: {
		const struct ascend_cmd_fill *f = &cmd->fill;

		if (!ascend_tail_zero(cmd, sizeof(*f)) || f->pad ||
		    !ascend_range_ok(f->dst, f->size))
			return bad;
		if (f->pattern_size != 1 && f->pattern_size != 2 &&
		    f->pattern_size != 4)
			return bad;
		return f->size % f->pattern_size ? bad : 0;
	}

	case ASCEND_CMD_EVENT_RECORD:
	case ASCEND_CMD_EVENT_WAIT: {
		const struct ascend_cmd_event *e = &cmd->event;
		u32 flags = cmd->opcode == ASCEND_CMD_EVENT_WAIT ?
			    ASCEND_CMD_EVENT_TIMEOUT : 0;

		if (!ascend_tail_zero(cmd, sizeof(*e)) || e->pad ||
		    !e->handle || !e->gen || (e->flags & ~flags))
			return bad;
		/* a timeout without the flag saying it is valid */
		if (!(e->flags & ASCEND_CMD_EVENT_TIMEOUT) && e->timeout_ms)
			return bad;
		return 0;
	}

	case ASCEND_CMD_WRITE_VALUE:
	case ASCEND_CMD_WAIT_VALUE: {
		const struct ascend_cmd_value *v = &cmd->value;

		if (!ascend_tail_zero(cmd, sizeof(*v)) || (v->addr & 7))
			return bad;
		if (cmd->opcode == ASCEND_CMD_WRITE_VALUE)
			return v->cond > ASCEND_WRITE_VALUE_AND ||
			       v->timeout_ms ? bad : 0;
		if (v->cond & ~(ASCEND_WAIT_VALUE_COND_MASK |
				ASCEND_WAIT_VALUE_RESET |
				ASCEND_WAIT_VALUE_OWN_LIMIT))
			return bad;
		return (v->cond & ASCEND_WAIT_VALUE_COND_MASK) >
		       ASCEND_WAIT_VALUE_ALL ? bad : 0;
	}

	case ASCEND_CMD_COPY_2D: {
		const struct ascend_cmd_copy_2d *c = &cmd->copy_2d;

		if (!ascend_tail_zero(cmd, sizeof(*c)) ||
		    ascend_copy_2d_span_check(c->dst, c->dpitch, c->width,
					      c->height) ||
		    ascend_copy_2d_span_check(c->src, c->spitch, c->width,
					      c->height))
			return bad;
		return 0;
	}

	case ASCEND_CMD_COPY_BATCH: {
		const struct ascend_cmd_copy_batch *c = &cmd->copy_batch;
		u64 bytes = (u64)c->count * sizeof(struct drm_ascend_copy_entry);

		if (!ascend_tail_zero(cmd, sizeof(*c)) || c->pad ||
		    (c->entries & 7) || !ascend_range_ok(c->entries, bytes))
			return bad;
		return 0;
	}

	case ASCEND_CMD_COPY_INDIRECT: {
		const struct ascend_cmd_copy_indirect *c = &cmd->copy_indirect;

		if (!ascend_tail_zero(cmd, sizeof(*c)) ||
		    (c->desc & (ASCEND_MEMCPY_DESC_ALIGN - 1)) ||
		    !ascend_range_ok(c->desc, ASCEND_MEMCPY_DESC_SIZE))
			return bad;
		return 0;
	}

	case ASCEND_CMD_COPY_OFFSET: {
		const struct ascend_cmd_copy_offset *c = &cmd->copy_offset;

		/* base + offset is checked when the bases are read */
		if (!ascend_tail_zero(cmd, sizeof(*c)) || !c->size ||
		    (c->dst_slot & 7) || (c->src_slot & 7))
			return bad;
		return 0;
	}

	case ASCEND_CMD_REDUCE: {
		const struct ascend_cmd_reduce *r = &cmd->reduce;
		unsigned int es = ascend_reduce_elem_size(r->dtype);

		if (!ascend_tail_zero(cmd, sizeof(*r)) || r->flags || r->pad ||
		    !es || !ascend_reduce_op_valid(r->op) ||
		    !ascend_range_ok(r->dst, r->size) ||
		    !ascend_range_ok(r->src, r->size))
			return bad;
		if ((r->size | r->dst | r->src) & (es - 1))
			return bad;
		/* the same range, or apart */
		if (r->dst != r->src && r->dst < r->src + r->size &&
		    r->src < r->dst + r->size)
			return bad;
		return 0;
	}

	case ASCEND_CMD_CALL: {
		const struct ascend_cmd_call *c = &cmd->call;
		u64 bytes = (u64)c->count * sizeof(struct ascend_cmd);

		if (!ascend_tail_zero(cmd, sizeof(*c)) || c->pad || !c->count ||
		    c->count > ASCEND_CALL_MAX_CMDS || (c->list & 7) ||
		    !ascend_range_ok(c->list, bytes))
			return bad;
		return 0;
	}

	case ASCEND_CMD_SWITCH: {
		const struct ascend_cmd_switch *w = &cmd->label_switch;

		if (!ascend_tail_zero(cmd, sizeof(*w)) || !w->count ||
		    w->count > ASCEND_CALL_MAX_CMDS || (w->table & 3) ||
		    !ascend_range_ok(w->table, (u64)w->count * sizeof(u32)))
			return bad;
		if (w->value_size != 4 && w->value_size != 8)
			return bad;
		return w->value & (w->value_size - 1) ? bad : 0;
	}

	case ASCEND_CMD_JUMP:
		return ascend_tail_zero(cmd, sizeof(cmd->jump)) &&
		       !cmd->jump.pad ? 0 : bad;

	default:
		return bad;
	}
}

u32 ascend_switch_entry(u64 selector, u32 count)
{
	return selector >= count ? count - 1 : (u32)selector;
}

bool ascend_list_target_ok(u32 target, u32 count)
{
	return target <= count;
}

u64 ascend_write_value_apply(u64 mem, u64 value, u32 op)
{
	switch (op) {
	case ASCEND_WRITE_VALUE_ADD:
		return mem + value;
	case ASCEND_WRITE_VALUE_OR:
		return mem | value;
	case ASCEND_WRITE_VALUE_AND:
		return mem & value;
	default:
		return value;
	}
}

bool ascend_wait_value_satisfied(u64 mem, u64 value, u32 cond)
{
	switch (cond & ASCEND_WAIT_VALUE_COND_MASK) {
	case ASCEND_WAIT_VALUE_GEQ:
		return (s64)(mem - value) >= 0;
	case ASCEND_WAIT_VALUE_EQ:
		return mem == value;
	case ASCEND_WAIT_VALUE_AND:
		return (mem & value) != 0;
	case ASCEND_WAIT_VALUE_NOR:
		return ~(mem | value) != 0;
	case ASCEND_WAIT_VALUE_LT:
		return mem < value;
	case ASCEND_WAIT_VALUE_GT:
		return mem > value;
	case ASCEND_WAIT_VALUE_ALL:
		return (mem & value) == value;
	default:
		return false;
	}
}

u64 ascend_cmd_deadline(u64 now_ns, u32 timeout_ms, u32 default_ms)
{
	u32 ms = timeout_ms ? timeout_ms : default_ms;
	u64 d;

	if (!ms)
		return 0;
	d = now_ns + (u64)ms * NSEC_PER_MSEC;
	/* 0 means "no deadline": never produce it by accident */
	return d ? d : 1;
}

u32 ascend_cmd_limit_ms(u32 own_ms, u32 device_ms, bool limited)
{
	if (!own_ms)
		return device_ms;
	/* a limited queue's own limit may only shorten the device's */
	if (limited && device_ms)
		return min(own_ms, device_ms);
	return own_ms;
}

bool ascend_sched_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

u64 ascend_sched_wake_vtime(u64 vtime, u64 clock, u64 slice_ns)
{
	u64 floor = clock - slice_ns;

	return ascend_sched_before(vtime, floor) ? floor : vtime;
}

bool ascend_sched_yield(u64 ran_ns, u64 slice_ns, u64 mine, u64 other)
{
	/* a tie yields too: equal groups take turns */
	return slice_ns && ran_ns >= slice_ns && !ascend_sched_before(mine, other);
}

bool ascend_cmd_expired(u64 now_ns, u64 deadline_ns)
{
	return deadline_ns && (s64)(now_ns - deadline_ns) >= 0;
}
