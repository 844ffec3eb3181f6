#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The acl Python module (lib/python) against the driver, as a TAP program.

Run in the test VM by `make check` (staged as /work/user/test_python_acl,
the module and Documentation/python.rst in /work/user/python/), or by hand:

    ACL_PYTHON_DIR=build/python tools/vm/run --copy build/python \\
        --copy tests/python/test_python_acl.py -- ./test_python_acl.py

Each case runs in a forked child, so a crash or hang of one is that case's
failure (as tests/lib/tap.h does for the C tests).  Inside a case, check()
records a failure and goes on; require() ends the case.
"""

import os
import re
import signal
import struct
import subprocess
import sys
import textwrap
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
MODDIR = os.environ.get("ACL_PYTHON_DIR") or os.path.join(HERE, "python")
if os.path.isdir(MODDIR):
    sys.path.insert(0, os.path.abspath(MODDIR))

import numpy as np  # noqa: E402  (after the path is set)

import acl  # noqa: E402

TIMEOUT = int(os.environ.get("TAP_TIMEOUT", "120"))
SIZE_MAX = 2**64 - 1
CASES = []
failed_checks = 0


class CaseEnd(Exception):
    """require() failed: the case ends here."""


def case(fn):
    CASES.append(fn)
    return fn


def where():
    frame = traceback.extract_stack(limit=3)[0]
    return "%s:%d" % (os.path.basename(frame.filename), frame.lineno)


def check(cond, what):
    global failed_checks
    if not cond:
        failed_checks += 1
        print("#   %s: check failed: %s" % (where(), what), flush=True)
    return bool(cond)


def check_eq(got, want, what):
    global failed_checks
    if got != want:
        failed_checks += 1
        print("#   %s: %s: got %r, want %r" % (where(), what, got, want), flush=True)
        return False
    return True


def check_ret(ret, want, what):
    """A CANN code, and when it is an error, a message for it."""
    ok = check_eq(ret, want, what)
    if ret != acl.ACL_SUCCESS:
        msg = acl.get_recent_err_msg()
        ok = check(msg != "", "%s: a message for %d" % (what, ret)) and ok
    return ok


def require(cond, what):
    if not cond:
        print("#   %s: required: %s" % (where(), what), flush=True)
        raise CaseEnd()


def ok(value_ret, what):
    """value from (value, ret), requiring ret == ACL_SUCCESS."""
    *values, ret = value_ret
    if ret != acl.ACL_SUCCESS:
        print("#   %s: %s returned %d: %s" % (where(), what, ret, acl.get_recent_err_msg()),
              flush=True)
        raise CaseEnd()
    return values[0] if len(values) == 1 else tuple(values)


def setup():
    require(acl.init() == 0, "acl.init()")
    require(acl.rt.set_device(0) == 0, "acl.rt.set_device(0)")


def teardown():
    check_ret(acl.rt.reset_device(0), 0, "reset_device(0)")
    check_ret(acl.finalize(), 0, "finalize()")


def pattern(n, seed):
    """n bytes, every byte value, in an order the seed picks."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, size=n, dtype=np.uint8)


# ---- the module ---------------------------------------------------------------

@case
def module_layout_and_constants():
    from acl import rt, util
    check(rt is acl.rt and util is acl.util, "from acl import rt, util")
    check(sys.modules.get("acl.rt") is acl.rt, "acl.rt in sys.modules")
    check(sys.modules.get("acl.util") is acl.util, "acl.util in sys.modules")
    for name in ("set_device", "reset_device", "get_device_count", "create_context",
                 "destroy_context", "set_context", "get_context", "create_stream",
                 "destroy_stream", "synchronize_stream", "create_event", "record_event",
                 "synchronize_event", "destroy_event", "event_elapsed_time", "malloc", "free",
                 "malloc_host", "free_host", "memcpy", "memcpy_async", "memset", "memcpy2d",
                 "memcpy2d_async", "memcpy_batch", "memcpy_batch_async", "get_mem_info",
                 "binary_load_from_file", "binary_get_function", "launch_kernel",
                 "binary_unload"):
        check(callable(getattr(acl.rt, name, None)), "acl.rt.%s" % name)
    for name in ("numpy_to_ptr", "ptr_to_numpy", "bytes_to_ptr", "ptr_to_bytes"):
        check(callable(getattr(acl.util, name, None)), "acl.util.%s" % name)
    # The values pyACL's documentation gives.
    check_eq((acl.ACL_MEMCPY_HOST_TO_HOST, acl.ACL_MEMCPY_HOST_TO_DEVICE,
              acl.ACL_MEMCPY_DEVICE_TO_HOST, acl.ACL_MEMCPY_DEVICE_TO_DEVICE,
              acl.ACL_MEMCPY_DEFAULT), (0, 1, 2, 3, 4), "memcpy kinds")
    check_eq((acl.ACL_MEM_MALLOC_HUGE_FIRST, acl.ACL_MEM_MALLOC_HUGE_ONLY,
              acl.ACL_MEM_MALLOC_NORMAL_ONLY), (0, 1, 2), "malloc policies")
    check_eq((acl.ACL_DDR_MEM, acl.ACL_HBM_MEM, acl.ACL_HBM_MEM_HUGE), (0, 1, 4), "mem attrs")
    check_eq((acl.ACL_SUCCESS, acl.ACL_ERROR_INVALID_PARAM, acl.ACL_ERROR_RT_PARAM_INVALID,
              acl.ACL_ERROR_RT_INVALID_DEVICEID, acl.ACL_ERROR_REPEAT_INITIALIZE),
             (0, 100000, 107000, 107001, 100002), "error codes")


@case
def init_and_finalize():
    check_ret(acl.init(), 0, "init()")
    check_ret(acl.init(), acl.ACL_ERROR_REPEAT_INITIALIZE, "init() twice")
    check_ret(acl.finalize(), 0, "finalize()")
    check_ret(acl.finalize(), acl.ACL_ERROR_REPEAT_FINALIZE, "finalize() twice")


@case
def devices():
    require(acl.init() == 0, "init")
    n = ok(acl.rt.get_device_count(), "get_device_count")
    want = os.environ.get("ASCEND_EXPECT_DEVICES")
    if want is not None:
        check_eq(n, int(want), "get_device_count() against the driver's devices")
    check(n >= 1, "at least one device")
    check_ret(acl.rt.set_device(n), acl.ACL_ERROR_RT_INVALID_DEVICEID, "set_device(count)")
    check_ret(acl.rt.set_device(0), 0, "set_device(0)")
    check_eq(acl.rt.get_device(), (0, 0), "get_device()")
    soc = acl.get_soc_name()
    check(isinstance(soc, str) and soc.startswith("Ascend"), "get_soc_name() %r" % soc)
    mode, ret = acl.rt.get_run_mode()
    check_ret(ret, 0, "get_run_mode()")
    check_eq(mode, acl.ACL_HOST, "run mode")
    check_ret(acl.rt.synchronize_device(), 0, "synchronize_device()")
    teardown()


@case
def contexts():
    require(acl.init() == 0, "init")
    ctx = ok(acl.rt.create_context(0), "create_context(0)")
    check(ctx != 0, "a context handle")
    check_eq(acl.rt.get_context(), (ctx, 0), "get_context() after create")
    ctx2 = ok(acl.rt.create_context(0), "create_context(0), a second")
    check_eq(acl.rt.get_context(), (ctx2, 0), "get_context() after the second")
    check_ret(acl.rt.set_context(ctx), 0, "set_context(first)")
    check_eq(acl.rt.get_context(), (ctx, 0), "get_context() after set_context")
    # Memory made under a set context works there.
    d = ok(acl.rt.malloc(64, acl.ACL_MEM_MALLOC_NORMAL_ONLY), "malloc")
    check_ret(acl.rt.memset(d, 64, 7, 64), 0, "memset under the context")
    check_ret(acl.rt.free(d), 0, "free")
    check_ret(acl.rt.destroy_context(ctx2), 0, "destroy_context(second)")
    check_ret(acl.rt.destroy_context(ctx), 0, "destroy_context(first)")
    check_ret(acl.rt.destroy_context(0), acl.ACL_ERROR_INVALID_PARAM, "destroy_context(0)")
    check_ret(acl.finalize(), 0, "finalize()")


# ---- copies -------------------------------------------------------------------

@case
def numpy_round_trip_h2d_d2d_d2h():
    """A numpy array to the device, across it, and back: byte-exact."""
    setup()
    src = pattern(3 * 1024 * 1024 + 77, 20).view(np.uint8)
    n = src.nbytes
    a = ok(acl.rt.malloc(n, acl.ACL_MEM_MALLOC_HUGE_FIRST), "malloc a")
    b = ok(acl.rt.malloc(n, acl.ACL_MEM_MALLOC_HUGE_FIRST), "malloc b")
    dst = np.zeros(n, dtype=np.uint8)
    check_ret(acl.rt.memcpy(a, n, acl.util.numpy_to_ptr(src), n, acl.ACL_MEMCPY_HOST_TO_DEVICE),
              0, "memcpy H2D")
    check_ret(acl.rt.memcpy(b, n, a, n, acl.ACL_MEMCPY_DEVICE_TO_DEVICE), 0, "memcpy D2D")
    check_ret(acl.rt.memcpy(acl.util.numpy_to_ptr(dst), n, b, n, acl.ACL_MEMCPY_DEVICE_TO_HOST),
              0, "memcpy D2H")
    check(dst.tobytes() == src.tobytes(), "the bytes that came back are the bytes sent")
    # A float32 matrix the same way, through bytes objects.
    m = np.arange(256 * 301, dtype=np.float32).reshape(256, 301) * np.float32(0.37)
    raw = m.tobytes()
    check_ret(acl.rt.memcpy(a, n, acl.util.bytes_to_ptr(raw), len(raw),
                            acl.ACL_MEMCPY_HOST_TO_DEVICE), 0, "memcpy H2D from bytes")
    back = bytearray(len(raw))
    check_ret(acl.rt.memcpy(acl.util.bytes_to_ptr(back), len(back), a, len(raw),
                            acl.ACL_MEMCPY_DEVICE_TO_HOST), 0, "memcpy D2H into a bytearray")
    m2 = np.frombuffer(bytes(back), dtype=np.float32).reshape(m.shape)
    check(np.array_equal(m, m2), "the float32 matrix came back equal")
    # ACL_MEMCPY_DEFAULT: the direction from the pointers.
    dst[:] = 0
    check_ret(acl.rt.memcpy(acl.util.numpy_to_ptr(dst), n, a, n, acl.ACL_MEMCPY_DEFAULT), 0,
              "memcpy DEFAULT")
    check(dst[:len(raw)].tobytes() == raw, "DEFAULT copied device to host")
    check_ret(acl.rt.free(a), 0, "free a")
    check_ret(acl.rt.free(b), 0, "free b")
    teardown()


@case
def pinned_host_memory_and_ptr_to_numpy():
    setup()
    n = 1 << 16
    h = ok(acl.rt.malloc_host(n), "malloc_host")
    d = ok(acl.rt.malloc(n, acl.ACL_MEM_MALLOC_NORMAL_ONLY), "malloc")
    view = acl.util.ptr_to_numpy(h, (n // 4,), np.dtype(np.int32).num)
    check_eq((view.shape, view.dtype), ((n // 4,), np.dtype(np.int32)), "view shape/dtype")
    want = np.arange(n // 4, dtype=np.int32) * -99991 - 5  # every byte of each word matters
    view[:] = want
    check_ret(acl.rt.memcpy(d, n, h, n, acl.ACL_MEMCPY_HOST_TO_DEVICE), 0, "H2D from pinned")
    view[:] = 0
    check_ret(acl.rt.memcpy(h, n, d, n, acl.ACL_MEMCPY_DEVICE_TO_HOST), 0, "D2H to pinned")
    check(np.array_equal(view, want), "the view over pinned memory shows what came back")
    check_eq(acl.util.ptr_to_bytes(h, 8), struct.pack("<ii", -5, -99996), "ptr_to_bytes of it")
    check_ret(acl.rt.free_host(h), 0, "free_host")
    check_ret(acl.rt.free(d), 0, "free")
    teardown()


@case
def memset_fills():
    setup()
    n = 10000
    d = ok(acl.rt.malloc(n, acl.ACL_MEM_MALLOC_NORMAL_ONLY), "malloc")
    check_ret(acl.rt.memset(d, n, 0x5A, n), 0, "memset 0x5a")
    check_ret(acl.rt.memset(d + 100, n - 100, 0x11, 50), 0, "memset 50 bytes at +100")
    out = np.zeros(n, dtype=np.uint8)
    check_ret(acl.rt.memcpy(acl.util.numpy_to_ptr(out), n, d, n, acl.ACL_MEMCPY_DEVICE_TO_HOST),
              0, "D2H")
    want = np.full(n, 0x5A, dtype=np.uint8)
    want[100:150] = 0x11
    check(np.array_equal(out, want), "the filled bytes")
    check_ret(acl.rt.memset(d, 16, 0, 17), acl.ACL_ERROR_RT_PARAM_INVALID, "memset count > max")
    check_ret(acl.rt.memset(0, 16, 0, 16), acl.ACL_ERROR_INVALID_PARAM, "memset NULL")
    check_ret(acl.rt.free(d), 0, "free")
    teardown()


@case
def memcpy2d_pitched():
    setup()
    rows, width, spitch, dpitch = 37, 100, 128, 160
    host = pattern(rows * spitch, 5)
    d = ok(acl.rt.malloc(rows * dpitch, acl.ACL_MEM_MALLOC_NORMAL_ONLY), "malloc")
    check_ret(acl.rt.memset(d, rows * dpitch, 0xEE, rows * dpitch), 0, "memset")
    check_ret(acl.rt.memcpy2d(d, dpitch, acl.util.numpy_to_ptr(host), spitch, width, rows,
                              acl.ACL_MEMCPY_HOST_TO_DEVICE), 0, "memcpy2d H2D")
    flat = np.zeros(rows * dpitch, dtype=np.uint8)
    check_ret(acl.rt.memcpy(acl.util.numpy_to_ptr(flat), flat.nbytes, d, flat.nbytes,
                            acl.ACL_MEMCPY_DEVICE_TO_HOST), 0, "D2H all")
    got = flat.reshape(rows, dpitch)
    check(np.array_equal(got[:, :width], host.reshape(rows, spitch)[:, :width]),
          "the rows arrived at the destination pitch")
    check(bool(np.all(got[:, width:] == 0xEE)), "the bytes between rows are untouched")
    # And back, into a tightly packed host matrix, on a stream.
    s = ok(acl.rt.create_stream(), "create_stream")
    back = np.zeros((rows, width), dtype=np.uint8)
    check_ret(acl.rt.memcpy2d_async(acl.util.numpy_to_ptr(back), width, d, dpitch, width, rows,
                                    acl.ACL_MEMCPY_DEVICE_TO_HOST, s), 0, "memcpy2d_async D2H")
    check_ret(acl.rt.synchronize_stream(s), 0, "synchronize_stream")
    check(np.array_equal(back, host.reshape(rows, spitch)[:, :width]), "the 2D copy back")
    check_ret(acl.rt.memcpy2d(d, 16, acl.util.numpy_to_ptr(host), 32, 17, 2,
                              acl.ACL_MEMCPY_HOST_TO_DEVICE), acl.ACL_ERROR_INVALID_PARAM,
              "memcpy2d width > dpitch")
    check_ret(acl.rt.destroy_stream(s), 0, "destroy_stream")
    check_ret(acl.rt.free(d), 0, "free")
    teardown()


@case
def memcpy_batch_entries():
    setup()
    sizes = [96, 1, 4097]
    total = sum(sizes)
    h = ok(acl.rt.malloc_host(total), "malloc_host")
    d = ok(acl.rt.malloc(total + 64, acl.ACL_MEM_MALLOC_NORMAL_ONLY), "malloc")
    hv = acl.util.ptr_to_numpy(h, (total,), np.dtype(np.uint8).num)
    hv[:] = pattern(total, 9)
    offs = [0, sizes[0], sizes[0] + sizes[1]]
    h2d = {"dstLoc": {"id": 0, "type": acl.ACL_MEM_LOCATION_TYPE_DEVICE},
           "srcLoc": {"id": 0, "type": acl.ACL_MEM_LOCATION_TYPE_HOST}}
    dsts = [d + o for o in offs]
    srcs = [h + o for o in offs]
    fi, ret = acl.rt.memcpy_batch(dsts, sizes, srcs, sizes, 3, [h2d], [0], 1)
    check_ret(ret, 0, "memcpy_batch H2D")
    out = np.zeros(total, dtype=np.uint8)
    check_ret(acl.rt.memcpy(acl.util.numpy_to_ptr(out), total, d, total,
                            acl.ACL_MEMCPY_DEVICE_TO_HOST), 0, "D2H")
    check(np.array_equal(out, hv), "the three entries arrived")
    # Asynchronously, device to host.
    d2h = {"dstLoc": {"id": 0, "type": acl.ACL_MEM_LOCATION_TYPE_HOST},
           "srcLoc": {"id": 0, "type": acl.ACL_MEM_LOCATION_TYPE_DEVICE}}
    check_ret(acl.rt.memset(d, total, 0x3C, total), 0, "memset")
    s = ok(acl.rt.create_stream(), "create_stream")
    fi, ret = acl.rt.memcpy_batch_async(srcs, sizes, dsts, sizes, 3, [d2h], [0], 1, s)
    check_ret(ret, 0, "memcpy_batch_async D2H")
    check_ret(acl.rt.synchronize_stream(s), 0, "synchronize_stream")
    check(bool(np.all(hv == 0x3C)), "the three entries came back")
    # CANN's checks: no entries; a destination too small (entry 2).
    fi, ret = acl.rt.memcpy_batch([], [], [], [], 0, [h2d], [0], 1)
    check_ret(ret, acl.ACL_ERROR_INVALID_PARAM, "num_batches 0")
    check_eq(fi, SIZE_MAX, "fail_index names no entry")
    fi, ret = acl.rt.memcpy_batch(dsts, [96, 1, 4096], srcs, sizes, 3, [h2d], [0], 1)
    check(ret != 0, "dest_max < size fails (got %d)" % ret)
    # The lists must have as many entries as the counts say.
    try:
        acl.rt.memcpy_batch(dsts, sizes, srcs, sizes, 4, [h2d], [0], 1)
        check(False, "a count longer than the lists raises")
    except ValueError:
        pass
    try:
        acl.rt.memcpy_batch(dsts, sizes, srcs, sizes, 3, [{"dst": 1}], [0], 1)
        check(False, "an attribute with unknown keys raises")
    except ValueError:
        pass
    check_ret(acl.rt.destroy_stream(s), 0, "destroy_stream")
    check_ret(acl.rt.free_host(h), 0, "free_host")
    check_ret(acl.rt.free(d), 0, "free")
    teardown()


@case
def get_mem_info_moves():
    setup()
    free0, total, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    check_ret(ret, 0, "get_mem_info(ACL_HBM_MEM)")
    check(0 < free0 <= total, "0 < free %d <= total %d" % (free0, total))
    # 3 MiB with HUGE_FIRST: two 2 MiB pages (as tests/user/test_acl_meminfo.c)
    d = ok(acl.rt.malloc(3 << 20, acl.ACL_MEM_MALLOC_HUGE_FIRST), "malloc 3 MiB")
    free1, total1, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    check_eq((free0 - free1, total1), (4 << 20, total), "free drops by two huge pages")
    check_ret(acl.rt.free(d), 0, "free")
    check_eq(acl.rt.get_mem_info(acl.ACL_HBM_MEM), (free0, total, 0), "and comes back")
    free, total, ret = acl.rt.get_mem_info(acl.ACL_MEM_P2P_HUGE1G + 1)
    check_ret(ret, acl.ACL_ERROR_INVALID_PARAM, "get_mem_info(bad attr)")
    teardown()


# ---- streams and events ---------------------------------------------------------

@case
def streams_and_events():
    setup()
    n = 1 << 20
    h = ok(acl.rt.malloc_host(n), "malloc_host")
    d = ok(acl.rt.malloc(n, acl.ACL_MEM_MALLOC_HUGE_FIRST), "malloc")
    hv = acl.util.ptr_to_numpy(h, (n,), np.dtype(np.uint8).num)
    s1 = ok(acl.rt.create_stream(), "create_stream 1")
    s2 = ok(acl.rt.create_stream_with_config(0, 0), "create_stream_with_config")
    start = ok(acl.rt.create_event(), "create_event start")
    filled = ok(acl.rt.create_event(), "create_event filled")
    end = ok(acl.rt.create_event_with_flag(acl.ACL_EVENT_TIME_LINE), "create_event_with_flag")
    # s1: fill, then record; s2 waits for that event before reading back.
    check_ret(acl.rt.record_event(start, s1), 0, "record start")
    check_ret(acl.rt.memset_async(d, n, 0x77, n, s1), 0, "memset_async")
    check_ret(acl.rt.record_event(filled, s1), 0, "record filled")
    check_ret(acl.rt.stream_wait_event(s2, filled), 0, "stream_wait_event")
    check_ret(acl.rt.memcpy_async(h, n, d, n, acl.ACL_MEMCPY_DEVICE_TO_HOST, s2), 0,
              "memcpy_async D2H")
    check_ret(acl.rt.record_event(end, s2), 0, "record end")
    check_ret(acl.rt.synchronize_event(end), 0, "synchronize_event(end)")
    check(bool(np.all(hv == 0x77)), "s2 read what s1 wrote, after the event")
    check_eq(acl.rt.query_event_status(end), (acl.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0),
             "query_event_status after the sync")
    ms, ret = acl.rt.event_elapsed_time(start, end)
    check_ret(ret, 0, "event_elapsed_time")
    check(isinstance(ms, float) and ms >= 0.0, "elapsed %r ms" % ms)
    check_eq(acl.rt.stream_query(s2), (acl.ACL_STREAM_STATUS_COMPLETE, 0), "stream_query")
    # H2D on a stream, then back: the bytes.
    hv[:] = pattern(n, 3)
    src = hv.copy()
    check_ret(acl.rt.memcpy_async(d, n, h, n, acl.ACL_MEMCPY_HOST_TO_DEVICE, s1), 0,
              "memcpy_async H2D")
    check_ret(acl.rt.synchronize_stream(s1), 0, "synchronize_stream")
    hv[:] = 0
    check_ret(acl.rt.memcpy_async(h, n, d, n, acl.ACL_MEMCPY_DEVICE_TO_HOST, s1), 0,
              "memcpy_async D2H")
    check_ret(acl.rt.synchronize_stream_with_timeout(s1, 60000), 0, "synchronize with timeout")
    check(np.array_equal(hv, src), "async round trip")
    check_ret(acl.rt.reset_event(start, s1), 0, "reset_event")
    check_ret(acl.rt.synchronize_event_with_timeout(filled, 1000), 0, "synchronize_event_with_timeout")
    for e in (start, filled, end):
        check_ret(acl.rt.destroy_event(e), 0, "destroy_event")
    check_ret(acl.rt.destroy_event(0), acl.ACL_ERROR_INVALID_PARAM, "destroy_event(0)")
    check_ret(acl.rt.destroy_stream(s1), 0, "destroy_stream")
    check_ret(acl.rt.destroy_stream_force(s2), 0, "destroy_stream_force")
    check_ret(acl.rt.free_host(h), 0, "free_host")
    check_ret(acl.rt.free(d), 0, "free")
    teardown()


# ---- kernels ----------------------------------------------------------------------

@case
def builtin_kernels_add32_fill32():
    setup()
    s = ok(acl.rt.create_stream(), "create_stream")
    b = ok(acl.rt.binary_load_from_file("ascend://builtin", []), "binary_load_from_file")
    add = ok(acl.rt.binary_get_function(b, "Add32"), "binary_get_function Add32")
    fill = ok(acl.rt.binary_get_function(b, "Fill32"), "binary_get_function Fill32")
    n = 5000
    rng = np.random.default_rng(32)
    x = rng.integers(-2**31, 2**31, size=n, dtype=np.int64).astype(np.int32)
    y = rng.integers(-2**31, 2**31, size=n, dtype=np.int64).astype(np.int32)
    da, db, dc = (ok(acl.rt.malloc(4 * n, acl.ACL_MEM_MALLOC_NORMAL_ONLY), "malloc")
                  for _ in range(3))
    for dev, arr in ((da, x), (db, y)):
        check_ret(acl.rt.memcpy(dev, 4 * n, acl.util.numpy_to_ptr(arr), 4 * n,
                                acl.ACL_MEMCPY_HOST_TO_DEVICE), 0, "H2D operand")
    # Add32(const int32 *a, const int32 *b, int32 *c, uint64 n), 4 blocks
    args = struct.pack("<QQQQ", da, db, dc, n)
    check_ret(acl.rt.launch_kernel(add, 4, acl.util.bytes_to_ptr(args), len(args), s), 0,
              "launch_kernel Add32")
    check_ret(acl.rt.synchronize_stream(s), 0, "synchronize_stream")
    c = np.zeros(n, dtype=np.int32)
    check_ret(acl.rt.memcpy(acl.util.numpy_to_ptr(c), 4 * n, dc, 4 * n,
                            acl.ACL_MEMCPY_DEVICE_TO_HOST), 0, "D2H result")
    with np.errstate(over="ignore"):
        check(np.array_equal(c, x + y), "c == a + b (int32, wrapping)")
    # Fill32(uint32 *p, uint32 v, uint64 count): natural alignment pads v.
    args = struct.pack("<QIxxxxQ", dc, 0xC0FFEE, n - 1)
    check_eq(len(args), 24, "Fill32 argument size")
    check_ret(acl.rt.launch_kernel(fill, 3, acl.util.bytes_to_ptr(args), len(args), s), 0,
              "launch_kernel Fill32")
    check_ret(acl.rt.synchronize_stream(s), 0, "synchronize_stream")
    check_ret(acl.rt.memcpy(acl.util.numpy_to_ptr(c), 4 * n, dc, 4 * n,
                            acl.ACL_MEMCPY_DEVICE_TO_HOST), 0, "D2H fill")
    check(bool(np.all(c[:n - 1] == 0xC0FFEE)), "Fill32 filled count words")
    with np.errstate(over="ignore"):
        check_eq(int(c[n - 1]), int((x + y)[n - 1]), "and not one more")
    # Wrong names and argument sizes are the runtime's errors, not crashes.
    fn, ret = acl.rt.binary_get_function(b, "NoSuchKernel")
    check(ret != 0 and fn == 0, "an unknown kernel name fails (%d)" % ret)
    check_ret(acl.rt.launch_kernel(add, 4, acl.util.bytes_to_ptr(args), 4, s),
              acl.ACL_ERROR_INVALID_PARAM, "launch with 4 argument bytes")
    check_ret(acl.rt.launch_kernel(0, 1, acl.util.bytes_to_ptr(args), len(args), s),
              acl.ACL_ERROR_INVALID_PARAM, "launch of no function")
    fb, ret = acl.rt.binary_load_from_file("/nonexistent/kernel.o", [])
    check(ret != 0 and fb == 0, "loading a missing file fails (%d)" % ret)
    check_ret(acl.rt.binary_unload(b), 0, "binary_unload")
    for dev in (da, db, dc):
        check_ret(acl.rt.free(dev), 0, "free")
    check_ret(acl.rt.destroy_stream(s), 0, "destroy_stream")
    teardown()


# ---- bad input ------------------------------------------------------------------------

@case
def bad_input_returns_cann_codes():
    setup()
    d = ok(acl.rt.malloc(4096, acl.ACL_MEM_MALLOC_NORMAL_ONLY), "malloc")
    check_ret(acl.rt.free(0), acl.ACL_ERROR_INVALID_PARAM, "free(0)")
    check_ret(acl.rt.free(0x1000), acl.ACL_ERROR_RT_PARAM_INVALID, "free(not device memory)")
    check_ret(acl.rt.free(d + 64), acl.ACL_ERROR_RT_PARAM_INVALID, "free(inside an allocation)")
    check_ret(acl.rt.free_host(0), acl.ACL_ERROR_INVALID_PARAM, "free_host(0)")
    ptr, ret = acl.rt.malloc(0, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
    check_ret(ret, acl.ACL_ERROR_INVALID_PARAM, "malloc(0)")
    # memcpy with a destination too small: nothing arrives.
    src = pattern(64, 1)
    small = np.full(32, 0xAB, dtype=np.uint8)
    check_ret(acl.rt.memcpy(d, 64, acl.util.numpy_to_ptr(src), 64, acl.ACL_MEMCPY_HOST_TO_DEVICE),
              0, "H2D")
    check_ret(acl.rt.memcpy(acl.util.numpy_to_ptr(small), small.nbytes, d, 64,
                            acl.ACL_MEMCPY_DEVICE_TO_HOST), acl.ACL_ERROR_RT_PARAM_INVALID,
              "D2H of 64 bytes into 32")
    check(bool(np.all(small == 0xAB)), "the small destination is untouched")
    check_ret(acl.rt.memcpy(d, 64, 0, 4, acl.ACL_MEMCPY_HOST_TO_DEVICE),
              acl.ACL_ERROR_INVALID_PARAM, "memcpy from NULL")
    check_ret(acl.rt.memcpy(d, 64, 4096, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE),
              acl.ACL_ERROR_RT_PARAM_INVALID, "memcpy from unmapped host memory")
    check_ret(acl.rt.memcpy(d, 64, acl.util.numpy_to_ptr(src), 64, 7),
              acl.ACL_ERROR_INVALID_PARAM, "memcpy with kind 7 (inter-device) on one device")
    check_ret(acl.rt.free(d), 0, "free")
    check_ret(acl.rt.free(d), acl.ACL_ERROR_RT_PARAM_INVALID, "free twice")
    ret = acl.rt.synchronize_stream(0xDEADBEEF0000)
    check(ret != 0 and acl.get_recent_err_msg() != "",
          "synchronize_stream(not a stream) fails with a message (%d)" % ret)
    # Arguments Python cannot pass as the C types raise, as in pyACL.
    for call, exc in ((lambda: acl.rt.malloc(-1, 0), OverflowError),
                      (lambda: acl.rt.malloc(2**64, 0), OverflowError),
                      (lambda: acl.rt.free("0x10"), TypeError),
                      (lambda: acl.rt.free(1.5), TypeError),
                      (lambda: acl.rt.memcpy(d, 64, 0, 4), TypeError),
                      (lambda: acl.rt.set_device("0"), TypeError)):
        try:
            call()
            check(False, "%s not raised" % exc.__name__)
        except exc:
            pass
    teardown()


@case
def util_helpers():
    raw = bytes(range(256)) * 3
    p = acl.util.bytes_to_ptr(raw)
    check_eq(acl.util.ptr_to_bytes(p, len(raw)), raw, "bytes -> ptr -> bytes")
    check_eq(acl.util.ptr_to_bytes(p, 0), b"", "zero bytes")
    ba = bytearray(b"abcdef")
    acl.util.ptr_to_numpy(acl.util.bytes_to_ptr(ba), (6,), np.dtype(np.uint8).num)[0] = ord("z")
    check_eq(bytes(ba), b"zbcdef", "ptr_to_numpy is a view: writes reach the memory")
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    pa = acl.util.numpy_to_ptr(a)
    check_eq(pa, a.__array_interface__["data"][0], "numpy_to_ptr is the data address")
    v = acl.util.ptr_to_numpy(pa, (2, 3, 4), np.dtype(np.float64).num)
    check(np.array_equal(v, a) and v.dtype == np.float64, "ptr_to_numpy shape and dtype")
    check_eq(acl.util.ptr_to_numpy(pa, (0, 4), 5).shape, (0, 4), "an empty shape")
    # pyACL's numbers for numpy types (NPY_INT32 = 5, NPY_FLOAT32 = 11, NPY_FLOAT16 = 23).
    for num, dt in ((5, np.int32), (11, np.float32), (12, np.float64), (23, np.float16),
                    (2, np.uint8), (7, np.int64)):
        check_eq(acl.util.ptr_to_numpy(pa, (2,), num).dtype, np.dtype(dt), "type %d" % num)
    nc = a[:, :, ::2]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        acl.util.numpy_to_ptr(nc)
        check(any(issubclass(x.category, RuntimeWarning) for x in w),
              "a non-contiguous array warns")
    pc, c = acl.util.numpy_contiguous_to_ptr(nc)
    check(c.flags.c_contiguous and np.array_equal(c, nc), "numpy_contiguous_to_ptr's copy")
    check(np.array_equal(acl.util.ptr_to_numpy(pc, c.shape, 12), nc), "its address")
    # Memory the host cannot read raises instead of crashing the interpreter.
    for call in (lambda: acl.util.ptr_to_bytes(4096, 16),
                 lambda: acl.util.ptr_to_numpy(4096, (4,), 5),
                 lambda: acl.util.ptr_to_bytes(0, 1),
                 lambda: acl.util.bytes_to_ptr("text"),
                 lambda: acl.util.numpy_to_ptr(3),
                 lambda: acl.util.ptr_to_numpy(pa, (2,), 99)):
        try:
            call()
            check(False, "ValueError not raised")
        except ValueError:
            pass
    setup()
    d = ok(acl.rt.malloc(4096, acl.ACL_MEM_MALLOC_NORMAL_ONLY), "malloc")
    try:
        acl.util.ptr_to_bytes(d, 16)
        check(False, "ptr_to_bytes of device memory raises")
    except ValueError as e:
        check("device memory" in str(e), "the message says why: %s" % e)
    check_ret(acl.rt.free(d), 0, "free")
    teardown()


# ---- the documentation's example ------------------------------------------------------

def doc_examples():
    """The python code blocks of Documentation/python.rst: (path, [code, ...])."""
    for rst in (os.path.join(MODDIR, "python.rst"), os.path.join(HERE, "python.rst"),
                os.path.join(HERE, "..", "..", "Documentation", "python.rst")):
        if os.path.isfile(rst):
            break
    else:
        return None, []
    text = open(rst, encoding="utf-8").read()
    blocks = re.findall(r"^\.\. code-block:: python\n((?:\n|[ \t]+.*\n)+)", text, re.M)
    return rst, [textwrap.dedent(b) for b in blocks]


@case
def documentation_examples_run():
    rst, codes = doc_examples()
    require(rst is not None, "Documentation/python.rst is staged")
    require(len(codes) >= 2, "the examples in %s" % rst)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    for i, code in enumerate(codes, 1):
        check("import acl" in code, "example %d imports acl" % i)
        r = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=TIMEOUT - 10,
                           universal_newlines=True)
        for line in r.stdout.splitlines():
            print("#     %d| %s" % (i, line))
        check_eq(r.returncode, 0, "example %d's exit status" % i)
        lines = r.stdout.splitlines()
        check(bool(lines) and lines[-1].endswith(" OK"), "example %d ends with its OK line" % i)


# ---- TAP --------------------------------------------------------------------------------

def run_case(fn):
    """In a child: 0 pass, 1 fail."""
    signal.alarm(TIMEOUT)
    try:
        fn()
    except CaseEnd:
        return 1
    except Exception:  # an exception in a case is its failure
        for line in traceback.format_exc().splitlines():
            print("#   " + line)
        return 1
    return 1 if failed_checks else 0


def main():
    print("1..%d" % len(CASES), flush=True)
    failures = 0
    for i, fn in enumerate(CASES, 1):
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                status = run_case(fn)
            finally:
                sys.stdout.flush()
                os._exit(status)
        _, st = os.waitpid(pid, 0)
        passed = os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0
        if os.WIFSIGNALED(st):
            print("#   killed by signal %d%s" % (os.WTERMSIG(st),
                  " (timeout %d s)" % TIMEOUT if os.WTERMSIG(st) == signal.SIGALRM else ""))
        print("%s %d - %s" % ("ok" if passed else "not ok", i, fn.__name__), flush=True)
        failures += not passed
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
