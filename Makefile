# SPDX-License-Identifier: GPL-2.0-only
#
# Top-level build of the Ascend accel driver stack.
#
#   make              driver module, libacl_rt, user tests, samples, pkg-config file,
#                     ascend-smi, the acl Python module
#   make python       the acl Python module (pyACL's interface) into build/python/,
#                     for Debian's /usr/bin/python3 (Documentation/python.rst)
#   make install      module, DKMS sources, udev rule, modprobe.d example and the
#                     CANN-style tree under PREFIX (Documentation/install.rst)
#   make deb          (installs packages if root) Debian packages (ascend-dkms,
#                     libacl-rt, libacl-rt-dev, ascend-tools, python3-acl) with
#                     dpkg-buildpackage from a copy of the tree into DEB_OUT
#                     (default build/deb), checked by lintian
#                     (Documentation/packages.rst)
#   make kunit        out-of-tree kunit.ko (cached per kernel) + our KUnit modules
#   make checkpatch   scripts/checkpatch.pl --strict on drivers/accel/ascend
#   make shellcheck   shellcheck on every tracked shell script (tools/shellcheck-tree)
#   make run          (installs packages if root) build, run the D2D sample in the VM
#   make check        (installs packages if root) build everything, boot the test
#                     VM once, run KUnit + user tests + samples; last line of the
#                     output is "N passed, N failed[, N skipped]"
#   make check-debug  (installs packages if root) the whole test suite on a debug
#                     kernel (KASAN, lockdep, kmemleak, debugobjects, fault
#                     injection) built once from linux-source-6.12 and cached;
#                     not part of `make check` (Documentation/testing.rst)
#   make check-fresh  (root) `make run` and `make check` in a fresh Debian 12 root
#                     (debootstrap, cached bare; a new copy each run), so that
#                     tools/setup-deps installs everything itself; not part of
#                     `make check` (Documentation/testing.rst)
#   make bench        (installs packages if root) build, run the benchmarks in the
#                     VM; prints a table, writes build/bench/results.json and
#                     build/bench/report.html; BASE=<rev> also measures that tree
#   make clean
#
# Variables: KDIR (kernel headers; default: newest installed Debian 6.12 headers),
# ASCEND_CACHE (kunit.ko / kernel-source cache, outside the repo),
# CHECK_TIMEOUT (seconds for the check VM, default 900), CHECK_PARAMS (ascend
# module parameters in the check VM, default num_devices=2); for install:
# PREFIX (default /usr/local/Ascend/cann), DESTDIR; for deb: DEB_OUT.
#
# Plain `make` needs no root and installs nothing.

SHELL := /bin/bash

ifeq ($(origin KDIR),undefined)
KDIR := $(shell for d in /usr/src/linux-headers-6.12.*+deb12-amd64; do \
	  [ -f "$$d/Makefile" ] && echo "$$d"; done | sort -V | tail -n 1)
endif
KVER := $(if $(KDIR),$(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null || \
	  basename $(KDIR) | sed 's/^linux-headers-//'))
BUILD := $(CURDIR)/build
ASCEND_CACHE ?= $(or $(XDG_CACHE_HOME),$(or $(HOME),/tmp)/.cache)/ascend-accel/$(KVER)
CHECK_TIMEOUT ?= 900
# Driver parameters for the check VM: two NPUs so multi-device tests run.
CHECK_PARAMS ?= num_devices=2

MODDIR := $(CURDIR)/drivers/accel/ascend
KUNITDIR := $(CURDIR)/tests/kunit
TROUBLEDIR := $(CURDIR)/tests/harness/trouble
CHECKDIR := $(BUILD)/check
SAMPLE_D2D := 5_d2d_sync_memory_copy

# Sub-makes are optional while the tree is being assembled: skip a missing one.
define submake
	@if [ -f $(1)/Makefile ]; then \
		$(MAKE) -C $(1) BUILD=$(BUILD); \
	else \
		echo "note: $(1)/Makefile does not exist yet: skipped"; \
	fi
endef

.PHONY: all module lib tests samples pkgconfig kunit checkpatch shellcheck harness-module run check \
	check-body check-stage clean need-kdir bench smi install check-debug check-fresh \
	fuzz stress python deb

all: module lib tests samples pkgconfig smi python

need-kdir:
	@if [ -z "$(KDIR)" ] || [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "error: no Debian 6.12 kernel headers (KDIR='$(KDIR)')." >&2; \
		echo "       Run tools/setup-deps as root (or 'make run' / 'make check' as root)," >&2; \
		echo "       or pass KDIR=/path/to/linux-headers." >&2; \
		exit 1; \
	fi

module: need-kdir
	$(MAKE) -C $(KDIR) M=$(MODDIR) modules

lib:
	$(call submake,lib/libaclrt)

tests: lib
	$(call submake,tests/user)

samples: lib
	$(call submake,tests/samples)

smi:
	$(call submake,tools/ascend-smi)

# Needs python3-dev, not numpy (the numpy helpers find it at run time).
python: lib
	$(call submake,lib/python)

# Documentation/install.rst.  Builds nothing: run `make` (as a user) first.
PREFIX ?= /usr/local/Ascend/cann
install:
	packaging/install.sh --build $(BUILD) --prefix $(PREFIX) \
		$(if $(DESTDIR),--destdir $(DESTDIR)) --kver '$(KVER)' \
		--module $(MODDIR)/ascend.ko

# Documentation/packages.rst.  packaging/build-deb.sh copies the tree to
# $(DEB_OUT)/src/ and runs dpkg-buildpackage there; nothing is built in the tree.
DEB_OUT ?= $(BUILD)/deb
deb:
	tools/setup-deps --deb
	packaging/build-deb.sh --out $(DEB_OUT)

# An outside program builds with
#   PKG_CONFIG_PATH=<tree>/build/pkgconfig pkg-config --cflags --libs acl_rt
pkgconfig:
	@mkdir -p $(BUILD)/pkgconfig
	@printf '%s\n' \
		'prefix=$(CURDIR)' \
		'includedir=$${prefix}/lib/libaclrt/include' \
		'libdir=$(BUILD)/lib' \
		'' \
		'Name: acl_rt' \
		'Description: CANN aclrt runtime API on the Linux ascend accel driver (build tree)' \
		'Version: 0.1.0' \
		'Cflags: -I$${includedir}' \
		'Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lacl_rt' \
		>$(BUILD)/pkgconfig/acl_rt.pc.tmp
	@cmp -s $(BUILD)/pkgconfig/acl_rt.pc.tmp $(BUILD)/pkgconfig/acl_rt.pc && \
		rm $(BUILD)/pkgconfig/acl_rt.pc.tmp || \
		mv $(BUILD)/pkgconfig/acl_rt.pc.tmp $(BUILD)/pkgconfig/acl_rt.pc

# KUnit: Debian's kernel has CONFIG_KUNIT unset, so kunit.ko is built out of
# tree from linux-source-6.12 into $(ASCEND_CACHE)/kunit-oot (once per kernel).
kunit: module
	@if [ ! -f $(KUNITDIR)/Kbuild ]; then \
		echo "note: tests/kunit/Kbuild does not exist yet: no KUnit suites built"; \
		exit 0; \
	fi; \
	oot=$$(tools/kunit-oot/prepare.sh $(KDIR) $(ASCEND_CACHE)) || exit 1; \
	$(MAKE) -C $(KDIR) M=$(KUNITDIR) KUNIT_OOT=$$oot \
		KBUILD_EXTRA_SYMBOLS="$$oot/Module.symvers $(MODDIR)/Module.symvers" modules

# vm_trouble.ko: kernel trouble on purpose, for tests/harness/check-trouble only
# (proves that the VM harness fails a run on each kind); never installed.
harness-module: need-kdir
	$(MAKE) -C $(KDIR) M=$(TROUBLEDIR) modules

# Passes when checkpatch reports no ERROR (warnings and checks are listed).
checkpatch: need-kdir
	@src=$$(tools/kunit-oot/prepare.sh --extract-only $(KDIR) $(ASCEND_CACHE)) || exit 1; \
	files=$$(ls drivers/accel/ascend/*.[ch] drivers/accel/ascend/emu/*.[ch] 2>/dev/null | grep -v '\.mod\.c$$'); \
	[ -n "$$files" ] || { echo "checkpatch: no driver sources"; exit 0; }; \
	out=$$(perl $$src/scripts/checkpatch.pl --strict --no-tree --quiet --summary-file \
		--color=never -f $$files 2>&1); \
	[ -n "$$out" ] && printf '%s\n' "$$out"; \
	errs=$$(printf '%s\n' "$$out" | awk 'match($$0, /total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks/) { \
		split(substr($$0, RSTART + 7, RLENGTH - 7), n, /[^0-9]+/); e += n[1]; w += n[2]; c += n[3] } \
		END {printf "%d errors, %d warnings, %d checks", e, w, c}'); \
	echo "checkpatch --strict: $$errs"; \
	case "$$errs" in "0 errors"*) exit 0 ;; *) exit 1 ;; esac

shellcheck:
	@tools/shellcheck-tree

run:
	tools/setup-deps
	$(MAKE) all
	tools/vm/run --copy $(BUILD)/samples/$(SAMPLE_D2D)/main \
		--copy tests/samples/$(SAMPLE_D2D)/run.sh -- sh run.sh

# Benchmarks (Documentation/benchmarks.rst): one VM run of ascend-bench, every
# figure a ratio to a baseline measured in that run; prints a table and writes
# build/bench/results.json and build/bench/report.html (plots of the curves).
# BASE=<git rev>: that tree's ascend-bench and libacl_rt run too, in the same
# VM boot (with this tree's kernel module), and the report compares both.
# Fails only when the benchmarks could not run.
BASE ?=
BENCH_MEM ?= 3G
BENCH_PARAMS ?=
BENCH_TIMEOUT ?= $(if $(BASE),900,600)
bench:
	tools/setup-deps --bench
	$(MAKE) all
	$(MAKE) -C tools/bench BUILD=$(BUILD)
	rm -rf $(BUILD)/bench/base
	$(if $(BASE),tools/bench/build-base '$(BASE)' $(BUILD)/bench/base)
	@set -o pipefail; VM_PREEMPT=voluntary tools/vm/run --timeout $(BENCH_TIMEOUT) --mem $(BENCH_MEM) \
		$(if $(BENCH_PARAMS),--params '$(BENCH_PARAMS)') \
		--copy $(BUILD)/bench/ascend-bench --copy tools/bench/vm-bench.sh \
		$(if $(BASE),--copy $(BUILD)/bench/base) -- sh ./vm-bench.sh | tee $(BUILD)/bench/vm.log; \
	/usr/bin/python3 tools/bench/report --vm-status $$? --html $(BUILD)/bench/report.html \
		--vm-settings "QEMU TCG ($${VM_TCG_THREAD:-single}-threaded), 2 vCPUs, preempt=voluntary, $(BENCH_MEM) guest memory, module parameters: $(or $(BENCH_PARAMS),defaults), timeout $(BENCH_TIMEOUT) s" \
		--rev "$$(git describe --always --dirty) ($$(git log -1 --format=%cd --date=short))" \
		$(if $(BASE),--base-rev "$$(git rev-parse --short '$(BASE)^{commit}') ($(BASE))") \
		$(BUILD)/bench/vm.log $(BUILD)/bench/results.json

# Long forms of the reliability tests (Documentation/reliability.rst): the
# fuzzer (tests/fuzz) for FUZZ_SECONDS, the kill/reload stress for
# STRESS_SECONDS, each in one VM run; the VM's verdict (oops/WARN, module
# unload at the end) counts as well as the program's.
FUZZ_SECONDS ?= 3600
FUZZ_ARGS ?=
STRESS_SECONDS ?= 1800
fuzz:
	tools/setup-deps
	$(MAKE) all
	tools/vm/run --timeout $$(( $(FUZZ_SECONDS) + 600 )) --params "$(CHECK_PARAMS)" \
		--copy $(BUILD)/tests/user/test_fuzz_ioctl -- \
		./test_fuzz_ioctl --seconds $(FUZZ_SECONDS) $(FUZZ_ARGS)

stress:
	tools/setup-deps
	$(MAKE) all
	tools/vm/run --timeout $$(( $(STRESS_SECONDS) * 2 + 600 )) --params "$(CHECK_PARAMS)" \
		--copy $(BUILD)/tests/user/test_stress_kill -- \
		env STRESS_SECONDS=$(STRESS_SECONDS) ./test_stress_kill

# One VM boot runs everything; build failures and a crashed/hung VM are counted
# as failures by tools/check-summary, whose last line is "N passed, N failed".
#
# check-body never fails (failures are results), so that the summary's last
# line is the last thing printed; only check's own exit status reports them.
check:
	tools/setup-deps
	@$(MAKE) --no-print-directory check-body
	@tools/check-summary --vm-status "$$(cat $(CHECKDIR)/vm.status 2>/dev/null || echo 125)" \
		--vm-log $(CHECKDIR)/vm.log --vm-dir $(BUILD)/vm $(CHECKDIR)/host.results

check-body:
	@rm -rf $(CHECKDIR) && mkdir -p $(CHECKDIR)
	@$(MAKE) module || echo "RESULT: FAIL build/module" >>$(CHECKDIR)/host.results
	@$(MAKE) lib tests samples pkgconfig smi python || echo "RESULT: FAIL build/userspace" >>$(CHECKDIR)/host.results
	@if [ -f $(MODDIR)/ascend.ko ]; then \
		$(MAKE) kunit || echo "RESULT: FAIL build/kunit" >>$(CHECKDIR)/host.results; \
	fi
	@if $(MAKE) --no-print-directory checkpatch >$(CHECKDIR)/checkpatch.log 2>&1; then \
		echo "RESULT: PASS checkpatch ($$(tail -n 1 $(CHECKDIR)/checkpatch.log))"; \
	else \
		cat $(CHECKDIR)/checkpatch.log; \
		echo "RESULT: FAIL checkpatch ($$(tail -n 1 $(CHECKDIR)/checkpatch.log))"; \
	fi >>$(CHECKDIR)/host.results
	@if tools/shellcheck-tree >$(CHECKDIR)/shellcheck.log 2>&1; then \
		echo "RESULT: PASS shellcheck ($$(tail -n 1 $(CHECKDIR)/shellcheck.log))"; \
	else \
		cat $(CHECKDIR)/shellcheck.log; \
		echo "RESULT: FAIL shellcheck ($$(tail -n 1 $(CHECKDIR)/shellcheck.log))"; \
	fi >>$(CHECKDIR)/host.results
	@if tools/check-boundary >$(CHECKDIR)/boundary.log 2>&1; then \
		echo "RESULT: PASS boundary ($$(tail -n 1 $(CHECKDIR)/boundary.log))"; \
	else \
		cat $(CHECKDIR)/boundary.log; \
		echo "RESULT: FAIL boundary ($$(tail -n 1 $(CHECKDIR)/boundary.log))"; \
	fi >>$(CHECKDIR)/host.results
	@$(MAKE) --no-print-directory check-stage
	@tests/install/check.sh $(CHECKDIR) >>$(CHECKDIR)/host.results 2>$(CHECKDIR)/install.log || \
		echo "RESULT: FAIL install/check.sh" >>$(CHECKDIR)/host.results
	@tools/check-docs >>$(CHECKDIR)/host.results 2>$(CHECKDIR)/docs.log || \
		echo "RESULT: FAIL docs/check-docs" >>$(CHECKDIR)/host.results
	@set -o pipefail; args=(); \
	if [ -f $(MODDIR)/ascend.ko ]; then \
		oot=$(ASCEND_CACHE)/kunit-oot; \
		for ko in $(KUNITDIR)/*.ko; do [ -f "$$ko" ] && args+=(--module "$$ko"); done; \
		for ko in $$oot/kunit.ko $$oot/drm_kunit_helpers.ko; do \
			[ -f "$$ko" ] && [ $${#args[@]} -gt 0 ] && args+=(--module "$$ko"); \
		done; \
	else \
		args+=(--no-driver); \
	fi; \
	echo "check: booting the test VM (console log: build/vm/console.log)"; \
	tools/vm/run "$${args[@]}" --params '$(CHECK_PARAMS)' --timeout $(CHECK_TIMEOUT) \
		--copy $(CHECKDIR)/payload/user --copy $(CHECKDIR)/payload/samples \
		--copy tests/run-in-vm.sh -- sh run-in-vm.sh | tee $(CHECKDIR)/vm.log; \
	echo $$? >$(CHECKDIR)/vm.status
	@echo "check: the harness fails a VM run on each kind of kernel trouble (build/vm-trouble/)"
	@if $(MAKE) --no-print-directory harness-module >$(CHECKDIR)/harness-module.log 2>&1; then \
		tests/harness/check-trouble $(TROUBLEDIR)/vm_trouble.ko 2>$(CHECKDIR)/trouble.log; \
	else \
		cat $(CHECKDIR)/harness-module.log; echo "RESULT: FAIL build/harness-module"; \
	fi >>$(CHECKDIR)/host.results

# Debug-kernel lane: tools/debug-kernel/check builds (cold: see
# Documentation/testing.rst) or reuses the cached kernel, builds our modules
# against it and runs the same suite; last line "N passed, N failed".
check-debug:
	tools/setup-deps --debug-kernel
	@tools/debug-kernel/check

# Fresh-machine lane: tools/fresh/check runs `make run` then `make check` as
# root in a new copy of a cached bare debootstrap root (bookworm, minbase +
# make) with the host's Debian apt sources; fails unless the sample's SUCCESS
# line and "N passed, 0 failed" appear.
check-fresh:
	@tools/fresh/check

# What the VM gets: every user-test executable and every sample (binaries from
# build/samples/<name>/ over the sample's source directory, for data files);
# when the acl Python module is built, its test (a #!/usr/bin/python3 script,
# so tools/vm/run stages Debian's python3 and numpy) with the module and
# Documentation/python.rst (whose examples it runs) in user/python/.
check-stage:
	@rm -rf $(CHECKDIR)/payload && mkdir -p $(CHECKDIR)/payload/user $(CHECKDIR)/payload/samples
	@for f in $(BUILD)/tests/user/*; do \
		[ -f "$$f" ] && [ -x "$$f" ] && cp "$$f" $(CHECKDIR)/payload/user/; \
	done; true
	@if ls $(BUILD)/python/acl.*.so >/dev/null 2>&1; then \
		mkdir -p $(CHECKDIR)/payload/user/python && \
		cp $(BUILD)/python/acl.*.so Documentation/python.rst $(CHECKDIR)/payload/user/python/ && \
		install -m 0755 tests/python/test_python_acl.py $(CHECKDIR)/payload/user/test_python_acl; \
	fi
	@for d in tests/samples/*/; do \
		n=$$(basename "$$d"); [ -f "$$d/run.sh" ] || continue; \
		mkdir -p $(CHECKDIR)/payload/samples/$$n; \
		cp -r "$$d". $(CHECKDIR)/payload/samples/$$n/; \
		[ -d $(BUILD)/samples/$$n ] && cp -r $(BUILD)/samples/$$n/. $(CHECKDIR)/payload/samples/$$n/; \
	done; true

clean:
	@if [ -n "$(KDIR)" ] && [ -f "$(KDIR)/Makefile" ]; then \
		$(MAKE) -C $(KDIR) M=$(MODDIR) clean; \
		[ -f $(KUNITDIR)/Kbuild ] && $(MAKE) -C $(KDIR) M=$(KUNITDIR) \
			KUNIT_OOT=$(ASCEND_CACHE)/kunit-oot clean; \
		$(MAKE) -C $(KDIR) M=$(TROUBLEDIR) clean; \
	fi; true
	rm -rf $(BUILD)
