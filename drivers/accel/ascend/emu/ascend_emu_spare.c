// SPDX-License-Identifier: GPL-2.0-only
/*
 * Spare backing pages of the emulated NPUs' HBM.
 *
 * Discarded device memory gives its backing pages back, and the next write
 * of fresh device memory needs pages again.  Managed memory does both for
 * every 2 MiB it moves, and under emulation a page from the page allocator
 * (which clears every page it hands out when init_on_alloc is on, as in
 * Debian's kernels) cost several times the copy of its 4 KiB.  So the pages
 * of discarded HBM wait here for the next write, up to a bound the caller
 * gives, and go back to the page allocator when it asks (a shrinker).
 *
 * A spare page holds the bytes of whoever used it last: it is cleared when
 * taken, or written whole before the device's store publishes it
 * (ascend_emu.c).  Spare pages are not backing: the backing counters and
 * the bus's backed_pages leave them out.
 *
 * Locking: ascend_emu_spare_lock protects the list and its count.
 */
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/shrinker.h>
#include <linux/spinlock.h>

#include "ascend_emu.h"

static DEFINE_SPINLOCK(ascend_emu_spare_lock);
static LIST_HEAD(ascend_emu_spare_list);	/* page->lru */
static unsigned long ascend_emu_spare_nr;
static struct shrinker *ascend_emu_spare_shrinker;

struct page *ascend_emu_spare_get(void)
{
	struct page *page;

	if (!READ_ONCE(ascend_emu_spare_nr))
		return NULL;
	spin_lock(&ascend_emu_spare_lock);
	page = list_first_entry_or_null(&ascend_emu_spare_list, struct page,
					lru);
	if (page) {
		list_del(&page->lru);
		ascend_emu_spare_nr--;
	}
	spin_unlock(&ascend_emu_spare_lock);
	return page;
}

void ascend_emu_spare_put(struct page *page, unsigned long max)
{
	spin_lock(&ascend_emu_spare_lock);
	/* no shrinker (module load or unload): nothing may stay */
	if (ascend_emu_spare_shrinker && ascend_emu_spare_nr < max) {
		list_add(&page->lru, &ascend_emu_spare_list);
		ascend_emu_spare_nr++;
		page = NULL;
	}
	spin_unlock(&ascend_emu_spare_lock);
	if (page)
		__free_page(page);
}

/* Give back up to @nr spare pages; how many went. */
static unsigned long ascend_emu_spare_drop(unsigned long nr)
{
	unsigned long done = 0;
	struct page *page;

	while (done < nr && (page = ascend_emu_spare_get())) {
		__free_page(page);
		done++;
	}
	return done;
}

static unsigned long ascend_emu_spare_count(struct shrinker *s,
					    struct shrink_control *sc)
{
	return READ_ONCE(ascend_emu_spare_nr) ?: SHRINK_EMPTY;
}

static unsigned long ascend_emu_spare_scan(struct shrinker *s,
					   struct shrink_control *sc)
{
	unsigned long done = ascend_emu_spare_drop(sc->nr_to_scan);

	return done ?: SHRINK_STOP;
}

int ascend_emu_spare_init(void)
{
	struct shrinker *s = shrinker_alloc(0, "ascend-emu-spare");

	if (!s)
		return -ENOMEM;
	s->count_objects = ascend_emu_spare_count;
	s->scan_objects = ascend_emu_spare_scan;
	shrinker_register(s);
	spin_lock(&ascend_emu_spare_lock);
	ascend_emu_spare_shrinker = s;
	spin_unlock(&ascend_emu_spare_lock);
	return 0;
}

void ascend_emu_spare_fini(void)
{
	struct shrinker *s;

	spin_lock(&ascend_emu_spare_lock);
	s = ascend_emu_spare_shrinker;
	ascend_emu_spare_shrinker = NULL;
	spin_unlock(&ascend_emu_spare_lock);
	if (s)
		shrinker_free(s);
	ascend_emu_spare_drop(ULONG_MAX);
}
