# The two README commands. Both work on a fresh Debian 12 as root: they install the Debian
# packages the build needs, configure, build and then run.
#   make run   - build smsim (only what it needs) and run it on its built-in default workload
#   make test  - build everything and pass the whole test suite
# `make test-under-load` runs the tests that start processes or send signals three times while
# four busy loops load the cores (tests/under_load.sh; about two minutes; .ci/run runs it after make test).
# `make bench [AGAINST=path/to/older/smsim]` runs every benchmark; whole runs are timed as users see
# them (wall, user, system, page faults, RSS), in pairs with AGAINST when given.
# Plain `make` builds everything (same as `make build`). PGO=1 makes any of them a
# profile-guided build (tools/pgo_configure.sh: an instrumented build and a training run first).
BUILD      ?= build
PGO        ?= 0
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=
APT_PKGS    = cmake make g++ gcc pkg-config libsystemc-dev libgtest-dev libgmock-dev \
              libboost-dev libbenchmark-dev liblzma-dev libzstd-dev xz-utils python3 clang-14 libclang-rt-14-dev \
              chromium gtkwave python3-matplotlib munge slurmctld slurmd slurm-client

.PHONY: all deps configure build run test test-under-load bench clean

# The recursive make that CMake's generator runs would print "Entering directory" lines.
MAKEFLAGS += --no-print-directory

all: build

# Install only what is missing, so repeated runs stay fast and work offline once set up.
deps:
	@missing=""; for p in $(APT_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y $$missing; \
	fi

configure: deps
ifeq ($(PGO),1)
	tools/pgo_configure.sh $(BUILD) $(JOBS) $(CMAKE_ARGS)
else
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSMTLM_PGO_GENERATE= -DSMTLM_PGO_USE= $(CMAKE_ARGS)
endif

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: configure
	cmake --build $(BUILD) -j $(JOBS) --target smsim
	$(abspath $(BUILD))/platform/smsim

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-under-load: build
	tests/under_load.sh $(BUILD)

bench: build
	$(abspath $(BUILD))/tests/bench/smtlm_bench_kernels --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
	$(abspath $(BUILD))/tests/bench/smtlm_bench_trace --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
	$(abspath $(BUILD))/tests/bench/smtlm_throughput
	python3 tests/bench/whole_runs.py --build $(BUILD) $(if $(AGAINST),--against $(AGAINST))
	@if command -v valgrind >/dev/null; then tests/bench/host_instructions.sh $(BUILD); \
	 else echo "(host instructions per warp instruction: install valgrind and run tests/bench/host_instructions.sh)"; fi

clean:
	rm -rf $(BUILD)
