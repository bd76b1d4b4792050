# common.mk -- included by every directory's Makefile (common/README.md, "Make").
#
#   make                  build the directory's programs for ARCH
#   make ARCH=sm_80       build for another GPU (CUDA 13: sm_75 and newer)
#   make DEBUG=1          device debug info (-G), no optimization, synchronize after launches
#   make run [QUICK=1]    make every figure's data (QUICK: small sweeps -> results-quick/), one
#                         progress line per file; without a GPU (or HOST_ONLY=1) only HOST_DATA
#   make run FULL=1       also LONG_DATA: the long sweeps beyond the paper's figures (QUICK=1
#                         always makes them, small)
#   make run-list         the data files of `make run`: a 'host:' line, a 'gpu:' line and a
#                         'long:' line (LONG_DATA: made with FULL=1 or QUICK=1)
#   make sanitize         compute-sanitizer memcheck + racecheck over each SANITIZE_RUNS entry
#
# A directory Makefile sets PROGRAMS (binaries built from <name>.cu) and SANITIZE_RUNS
# (quoted command lines of small runs), includes this file, then its experiments.mk, which
# lists its data files in HOST_DATA (no GPU needed), GPU_DATA and LONG_DATA (GPU files whose
# full sweeps take long and go beyond a figure of the paper: only with FULL=1), one rule each.

COMMON_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

NVCC ?= nvcc
CC ?= cc
# GPU architecture to build for: sm_90 = H100/H200 (Hopper).
ARCH ?= sm_90
# Extra flags for nvcc, e.g. EXTRA_NVCCFLAGS=-Xptxas=-v for the register report.
EXTRA_NVCCFLAGS ?=
# DEBUG=1: -G -O0 and a device synchronize after every launch (CHECK_LAUNCH).
DEBUG ?=
# QUICK=1: small sweeps, few reps, output in results-quick/ (never overwrites results/).
QUICK ?=
# FULL=1: make run also makes LONG_DATA (and an experiments.mk may restore longer sweeps).
FULL ?=
# Revision recorded in every .dat file (override where there is no .git, e.g. GIT_REV=abc123).
GIT_REV ?= $(shell git -C $(COMMON_DIR) describe --always --dirty 2>/dev/null || echo unknown)
# The sanitizer used by `make sanitize`.
SANITIZER ?= compute-sanitizer
# The launch command of the MPI programs (neighbors-mpi, lambda-mpi): common/mpirun.sh, i.e.
# mpirun plus the flags Open MPI needs as root and with more ranks than cores (-q
# --oversubscribe [--allow-run-as-root]); MPIRUN=... (environment or make command line) is the
# launcher it runs instead of mpirun.
MPI_LAUNCH := $(COMMON_DIR)/mpirun.sh

ifeq ($(DEBUG),1)
OPTFLAGS := -G -O0 -DDEBUG_SYNC
else
OPTFLAGS := -O3 -lineinfo
endif
NVCCFLAGS := $(OPTFLAGS) -std=c++17 -arch=$(ARCH) -Xcompiler -Wall,-fopenmp $(EXTRA_NVCCFLAGS)
NVCC_BUILD = $(NVCC) $(NVCCFLAGS) -DCOMMON_GIT_REV='"$(GIT_REV)"' -DCOMMON_BUILD_FLAGS='"$(NVCCFLAGS)"'
LDLIBS ?= -lgomp
CFLAGS_HOST := -O2 -std=gnu11 -Wall -Wextra -fopenmp

ifeq ($(QUICK),1)
RESDIR := results-quick
RUNFLAGS := --quick
else
RESDIR := results
RUNFLAGS :=
endif

# Rebuild when the flags (ARCH=, DEBUG=, EXTRA_NVCCFLAGS=) or the git revision change, so the
# revision and flags a program writes into its .dat files are those it was built from.
FLAGSTAMP := .flags
BUILD_ID := $(NVCCFLAGS) rev=$(GIT_REV)
$(shell echo '$(BUILD_ID)' | cmp -s - $(FLAGSTAMP) 2>/dev/null || echo '$(BUILD_ID)' > $(FLAGSTAMP))

# (.flags is written at parse time, after make cached the directory: give it a no-op rule)
$(FLAGSTAMP):
	@:

HEADERS := $(wildcard *.h *.cuh) $(wildcard $(COMMON_DIR)/*.h) $(EXTRA_HEADERS)

# tests/Makefile wants only the variables above: it sets COMMON_NO_RULES.
ifndef COMMON_NO_RULES
.DEFAULT_GOAL := all
all: $(PROGRAMS)

# make run: each data file of HOST_DATA, then of GPU_DATA where a GPU answers (run-data.sh:
# common/bandwidth --check-device), one at a time with a progress line; HOST_ONLY=1 skips GPU_DATA.
HOST_DATA ?=
GPU_DATA ?=
LONG_DATA ?=
HOST_ONLY ?=
# the GPU files `make run` makes: GPU_DATA, and LONG_DATA with FULL=1 or QUICK=1
RUN_LONG = $(if $(filter 1,$(FULL) $(QUICK)),yes)
RUN_GPU = $(strip $(GPU_DATA) $(if $(RUN_LONG),$(LONG_DATA)))
RUN_LEFT = $(strip $(if $(RUN_LONG),,$(LONG_DATA)))
run:
	@MAKE='$(MAKE)' HOST_ONLY='$(HOST_ONLY)' RESDIR='$(RESDIR)' $(COMMON_DIR)/run-data.sh dir '$(notdir $(CURDIR))' '$(strip $(HOST_DATA))' '$(RUN_GPU)' '$(RUN_LEFT)'
run-list:
	$(info host: $(strip $(HOST_DATA)))$(info gpu: $(RUN_GPU))$(info long: $(strip $(LONG_DATA)))@:

%: %.cu $(HEADERS) $(FLAGSTAMP)
	$(NVCC_BUILD) -o $@ $< $(LDLIBS)

sanitize: all
	@for r in $(SANITIZE_RUNS); do \
	  for tool in memcheck racecheck; do \
	    echo "== compute-sanitizer --tool $$tool $$r"; \
	    $(SANITIZER) --tool $$tool --error-exitcode 99 $$r > sanitize.log 2>&1; rc=$$?; \
	    tail -n 2 sanitize.log; \
	    if [ $$rc -ne 0 ]; then echo "SANITIZE FAIL ($$tool, exit $$rc): $$r"; cat sanitize.log | head -40; exit 1; fi; \
	  done; \
	done; rm -f sanitize.log; echo "sanitize: $(notdir $(CURDIR)) clean"

clean::
	rm -f $(PROGRAMS) $(FLAGSTAMP) sanitize.log
	rm -rf results-quick sanitize-out

.PHONY: all run run-list sanitize clean
endif
