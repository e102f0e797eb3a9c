# SPDX-License-Identifier: GPL-3.0-or-later
# The front door: `make run` and `make test` work on a fresh Debian 12 machine.
BUILD      ?= build
TESTBUILD  ?= build-test
PREFIX     ?= /usr/local
MESON      ?= meson

.PHONY: all deps test-deps build run test install clean bench-deps format

all: build

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

$(BUILD)/build.ninja:
	$(MESON) setup $(BUILD) --buildtype=release -Dtests=false --prefix=$(PREFIX)

build: deps $(BUILD)/build.ninja
	@ninja -C $(BUILD) >/dev/null || ninja -C $(BUILD)

# The main job: report on this machine.
run: build
	./$(BUILD)/perflab report

$(TESTBUILD)/build.ninja:
	$(MESON) setup $(TESTBUILD) --buildtype=debug -Db_sanitize=address,undefined \
		-Db_lundef=false -Dtests=true

# Debug build with ASan+UBSan, every unit and integration test; the last line is
# "N passed, N failed[, N skipped]". The release build (-O3 -Werror) is built first: gcc
# warns about some code (maybe-uninitialized) only when it optimises, and `make run` must
# build on a fresh clone.
test: test-deps build $(TESTBUILD)/build.ninja
	@ninja -C $(TESTBUILD) >/dev/null || ninja -C $(TESTBUILD)
	@tests/run-all.sh $(TESTBUILD)

# PREFIX applies also to a build/ set up earlier with another prefix: `meson configure`
# sets it first (a no-op when it is the same); meson install then rebuilds what depends
# on it and honours DESTDIR (staged installs for packaging).
install: build
	$(MESON) configure $(BUILD) --prefix=$(PREFIX) >/dev/null
	DESTDIR="$(DESTDIR)" $(MESON) install -C $(BUILD) --quiet

bench-deps:
	@scripts/install-deps.sh peers

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(TESTBUILD)
