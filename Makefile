# The two user-facing commands: `make run` and `make test`.
# Both install missing Debian packages, configure and build first.
BUILD ?= build
JOBS  ?= $(shell nproc)
# Release here is -O2 without debug information (CMakeLists.txt): debug
# information is a third of the compile time, and no user of `make run` or
# `make test` reads it. A developer's tree: CMAKE_FLAGS=-DCMAKE_BUILD_TYPE=RelWithDebInfo.
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: run test build deps test-deps inline-arm64 bench sanitize fuzz mutate clean

deps:
	@scripts/install-deps

# The test oracles (cross binutils and gcc, llvm, qemu-user, clang) only for `make test`.
test-deps:
	@scripts/install-deps --test

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/patchcheck check --matrix --summary specs/mips/*.toml specs/arm64/*.toml specs/x86/*.toml specs/riscv/*.toml

test: test-deps build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	cmake --build $(BUILD) --target bench

# The same tests under AddressSanitizer and UBSan, in a separate tree.
sanitize: test-deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPATCHCHECK_SANITIZE=ON
	cmake --build build-asan -j $(JOBS)
	cd build-asan && LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp ctest --output-on-failure -j $(JOBS)

# Every libFuzzer target (tests/fuzz) for FUZZ_SECONDS each, in build-fuzz
# (clang-14); a table of executions, coverage and findings. Findings fail.
FUZZ_SECONDS ?= 60
fuzz: test-deps
	scripts/fuzz-run $(FUZZ_SECONDS)

# Mutation testing (tests/mutation/mutants.txt, docs/testing.md): each
# mutant rebuilt in build-mutate and run against the tests; not part of
# `make test`. MUTANTS="S01 F02" runs some.
MUTANTS ?=
mutate: test-deps
	scripts/mutate $(MUTANTS)

# Modular = inline on every arm64 spec, every transition, both byte orders:
# minutes of CPU per spec, so not part of `make test` (which compares the
# arm64 states alone).
inline-arm64: build
	$(BUILD)/tests/unit_tests "[trampoline_inline_arm64_full]"

clean:
	rm -rf $(BUILD) build-asan build-fuzz build-mutate
