# SPDX-License-Identifier: GPL-3.0-or-later
# The front door: `make run` and `make test` work on a fresh Debian 12 machine.
BUILD      ?= build
TESTBUILD  ?= build-test
FUZZBUILD  ?= build-fuzz
PREFIX     ?= /usr/local
MESON      ?= meson

.PHONY: all deps test-deps build run test fuzz fuzz-build install clean bench-deps bench-peers format format-check deb

all: build

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

# The release build links the libraries' static archives where Debian ships them
# (prefer_static; libc, libm and libudev stay shared), and libarchive, libpci and libisal
# (no archive, or one that drags in a dozen more) are loaded with dlopen(3) only by the
# code that uses them (src/util/dl.h): 3 shared objects besides the vDSO and ld.so, where
# they were 18 (and the debug build has 21). `perflab check --help` runs 0.57 M
# instructions instead of 5.6 M (valgrind callgrind, EPYC guest), most of that the
# dynamic loader's symbol lookups, which were most of check's distance to its read floor
# (benchmarks/check-vs-read.sh). The test builds stay dynamic.
$(BUILD)/build.ninja:
	$(MESON) setup $(BUILD) --buildtype=release -Dtests=false -Dprefer_static=true --prefix=$(PREFIX)

build: deps $(BUILD)/build.ninja
	@ninja -C $(BUILD) >/dev/null || ninja -C $(BUILD)

# The main job: report on this machine.
run: build
	./$(BUILD)/perflab report

$(TESTBUILD)/build.ninja:
	$(MESON) setup $(TESTBUILD) --buildtype=debug -Db_sanitize=address,undefined \
		-Db_lundef=false -Dtests=true

# The libFuzzer harnesses of tests/fuzz/ (docs/HACKING.md, "Fuzzing"): clang, ASan+UBSan,
# coverage over the whole library.
$(FUZZBUILD)/build.ninja:
	CC=clang $(MESON) setup $(FUZZBUILD) --buildtype=debug -Doptimization=1 \
		-Db_sanitize=address,undefined -Db_lundef=false -Dtests=false -Dfuzz=true

fuzz-build: test-deps $(FUZZBUILD)/build.ninja
	@ninja -C $(FUZZBUILD) >/dev/null || ninja -C $(FUZZBUILD)

# Each harness for FUZZ_TIME seconds (default 300); FUZZERS="a b" picks some.
FUZZERS ?= $(shell sed -n "/^fuzz_harnesses/,/]/p" tests/fuzz/meson.build | grep -o "'[a-z_]*'" | tr -d "'")
fuzz: fuzz-build
	@FUZZ_TIME=$(or $(FUZZ_TIME),300) FUZZ_BINDIR=$(CURDIR)/$(FUZZBUILD)/tests/fuzz \
		tests/fuzz/run.sh --long $(FUZZERS)

# Debug build with ASan+UBSan, every unit and integration test, and every fuzz harness
# for FUZZ_TIME seconds (default 20); the last line is "N passed, N failed[, N skipped]".
# The release build (-O3 -Werror) is built first: gcc warns about some code
# (maybe-uninitialized) only when it optimises, and `make run` must build on a fresh clone.
test: test-deps format-check build $(TESTBUILD)/build.ninja fuzz-build
	@ninja -C $(TESTBUILD) >/dev/null || ninja -C $(TESTBUILD)
	@FUZZ_TIME=$(or $(FUZZ_TIME),20) FUZZ_REQUIRED=1 \
		FUZZ_BINDIR=$(CURDIR)/$(FUZZBUILD)/tests/fuzz tests/run-all.sh $(TESTBUILD)

# PREFIX applies also to a build/ set up earlier with another prefix: `meson configure`
# sets it first (a no-op when it is the same); meson install then rebuilds what depends
# on it and honours DESTDIR (staged installs for packaging).
install: build
	$(MESON) configure $(BUILD) --prefix=$(PREFIX) >/dev/null
	DESTDIR="$(DESTDIR)" $(MESON) install -C $(BUILD) --quiet

# The Debian packages (debian/: perflab, perflab-mpi, libperflab-mark1, libperflab-mark-dev)
# built by dpkg-buildpackage from a clean copy of the tree into $(DEBDIR); prints their paths.
DEBDIR ?= build-deb
deb:
	@scripts/install-deps.sh deb
	@scripts/build-deb.sh $(DEBDIR)

bench-deps:
	@scripts/install-deps.sh peers

# The performance scoreboard (docs/scoreboard.md): every side-by-side script in
# benchmarks/ once, one table. QUICK=1 is the short run; SCOREBOARD="--json sb.json
# --markdown docs/scoreboard.md" keeps it and rewrites that page's table
# (benchmarks/scoreboard.py).
bench-peers: build test-deps
	@scripts/install-deps.sh peers
	@/usr/bin/python3 benchmarks/scoreboard.py $(if $(filter 1,$(QUICK)),--quick) $(SCOREBOARD)

# Every tracked C file as .clang-format wants it (clang-format 14, Debian 12); `make format`
# rewrites them, `make format-check` (part of `make test`) names those that differ.
CLANG_FORMAT ?= clang-format
format:
	$(CLANG_FORMAT) -i $$(git ls-files '*.c' '*.h')

format-check: test-deps
	@bad=$$(for f in $$(git ls-files '*.c' '*.h'); do \
		$(CLANG_FORMAT) --dry-run -Werror "$$f" >/dev/null 2>&1 || echo "$$f"; done); \
	if [ -n "$$bad" ]; then \
		echo "format-check: these files differ from .clang-format (run 'make format'):" >&2; \
		echo "$$bad" | sed 's/^/  /' >&2; exit 1; fi; \
	echo "format-check: $$(git ls-files '*.c' '*.h' | wc -l) C files formatted"

clean:
	rm -rf $(BUILD) $(TESTBUILD) $(FUZZBUILD) $(DEBDIR)
