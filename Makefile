# Top-level Makefile of the collection (common/README.md, "Make").
#   make all          build common/bandwidth and every paper directory that exists
#   make run          every figure's data, one file at a time (no GPU or HOST_ONLY=1: host-only data;
#                     FULL=1: also the long sweeps beyond the papers, and the results-ref/ commands)
#   make quick        make run QUICK=1: small sweeps into <dir>/results-quick/
#   make plots        render plots/<dir>_*.gp into plots/out/ (DATA=ref: committed data,
#                     DATA=quick: results-quick/; default: results/, else results-ref/; TERM=png)
#   make test         build, then run tests/ (GPU tests SKIP without a GPU; includes check-claims)
#   make report       the results page plots/out/index.html: every figure (PNG) with its paper item,
#                     the paper's number and ours, command and data (DATA=ref by default; no GPU)
#   make check-claims every measured number of the READMEs against results-ref/, and its provenance
#   make readme-tables rewrite the READMEs' generated tables from results-ref/
#   make sanitize     compute-sanitizer memcheck + racecheck over every QUICK run, memcheck over GPU tests
#   make clean        remove binaries, QUICK data and sanitizer output (results/ is kept)

PAPER_DIRS := simplex2d simplex3d fractals tensorcore sparsegrid hashmesh
# the paper directories present in this checkout; restrict with e.g. make run DIRS=simplex2d
DIRS ?= $(patsubst %/Makefile,%,$(wildcard $(addsuffix /Makefile,$(PAPER_DIRS))))
SUBDIRS := $(filter-out common,$(DIRS))
$(foreach d,$(DIRS),$(if $(wildcard $(d)/Makefile),,$(error DIRS: no directory '$(d)' here (use some of: common $(PAPER_DIRS)))))
# data source for plots: results (default), ref (results-ref/) or quick (results-quick/)
DATA ?=
# plot terminal: pdf (pdfcairo, default) or png (pngcairo); TERM from the environment is the
# shell's terminal type and is ignored, TERM=... on the command line must be pdf or png
TERM_PLOT := $(if $(filter command line,$(origin TERM)),$(TERM),pdf)

.PHONY: all run quick plots report test check-claims readme-tables sanitize clean help common $(SUBDIRS)

all: common $(SUBDIRS)

common:
	$(MAKE) -C common
$(SUBDIRS):
	$(MAKE) -C $@

# one directory at a time, one data file at a time, a progress line each ([k/N] DIR FILE ...
# (elapsed S s)); without a GPU (common/bandwidth --check-device exits 77) or with HOST_ONLY=1
# only each directory's HOST_DATA, and one line per directory naming the GPU files skipped
# (common/run-data.sh)
run: all
	@MAKE='$(MAKE)' HOST_ONLY='$(HOST_ONLY)' RESDIR='$(if $(filter 1,$(QUICK)),results-quick,results)' common/run-data.sh top common $(SUBDIRS)

quick:
	$(MAKE) run QUICK=1

plots:
	@DATA='$(DATA)' PLOT_TERM='$(TERM_PLOT)' DIRS='$(if $(filter command line,$(origin DIRS)),$(DIRS))' STRICT='$(STRICT)' ./plots/render.sh

# the results page: PNGs from DATA (ref unless given), then plots/report.sh reads the READMEs'
# figure tables into plots/out/index.html
REPORT_DATA := $(if $(DATA),$(DATA),ref)
report:
	@DATA='$(REPORT_DATA)' PLOT_TERM=png DIRS= STRICT=1 ./plots/render.sh >/dev/null
	@DATA='$(REPORT_DATA)' ./plots/report.sh

test: all
	$(MAKE) -C tests run

# host only, no build: tests/claims/check.sh (syntax in common/README.md); make test runs it
# too, through tests/cli/test_claims.sh
check-claims:
	@tests/claims/check.sh

readme-tables:
	@tests/claims/check.sh --tables

sanitize: all
	@for d in common $(SUBDIRS); do $(MAKE) -C $$d sanitize || exit 1; done
	$(MAKE) -C tests sanitize

clean:
	@for d in common $(SUBDIRS) tests; do $(MAKE) -C $$d clean; done
	rm -rf plots/out

help:
	@sed -n '2,14p' Makefile | sed 's/^# //'
	@echo "paper directories present: $(DIRS)"
