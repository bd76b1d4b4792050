# fractals/experiments.mk -- one make rule per data file of sections 4, 6 and 7 (Table 1,
# Figs. 4-5, the speedup sweeps, compact storage), each a run of one --exp experiment.
# Speedup sweeps (the work kernels of section 6): every fractal of Table 1, every level whose
# n x n byte array fits (sw: 2^32 cells, rd/ca: 2^30; QUICK: /256), rho = 8 16 32 (s=2),
# 9 27 (s=3), 4 16 (s=4), maps bb, lambda, lambda-thread, lambda-par.
# Each sweep also writes fractals_best_<work>.dat (each map at its fastest rho).
# make run (common.mk): HOST_DATA needs no GPU, GPU_DATA is skipped where there is none
HOST_DATA := $(RESDIR)/fractals_ratio.dat $(RESDIR)/fractals_shapes.dat $(RESDIR)/fractals_layout.dat
GPU_DATA := $(RESDIR)/fractals_speedup_sw.dat $(RESDIR)/fractals_speedup_rd.dat $(RESDIR)/fractals_speedup_ca.dat \
     $(RESDIR)/fractals_best_sw.dat $(RESDIR)/fractals_best_rd.dat $(RESDIR)/fractals_best_ca.dat \
     $(RESDIR)/fractals_compact_sierpinski-triangle.dat $(RESDIR)/fractals_compact_sierpinski-carpet.dat

# Default make run (not FULL=1, not QUICK=1): the same fractals, levels and rho, but the
# paper's maps only (bb, lambda, lambda-thread: those the figures and tables read; the
# reference H200 sweep has just these) and 1 warm-up + 3 samples; FULL=1 restores all maps, 3 + 10.
ifeq ($(filter 1,$(FULL) $(QUICK)),)
SPEEDUP_TRIM := $(empty) --map=paper --warmup=1 --reps=3
endif
$(RESDIR)/fractals_speedup_%.dat $(RESDIR)/fractals_best_%.dat: fractals
	./fractals --exp=speedup --work=$*$(SPEEDUP_TRIM) $(RUNFLAGS) --out=$(RESDIR)

# Parallel-space / memory ratio bb/lambda vs n (section 4, (s^2/k)^rb); computed on the host.
$(RESDIR)/fractals_ratio.dat: fractals
	./fractals --exp=ratio --out=$(RESDIR)

# The cells of each fractal at a small level (Table 1's pictures); computed on the host.
$(RESDIR)/fractals_shapes.dat: fractals
	./fractals --exp=shapes --out=$(RESDIR)

# Thread layouts of bb and lambda (thesis Figs. 4 and 5); computed on the host.
$(RESDIR)/fractals_layout.dat: fractals
	./fractals --exp=layout --out=$(RESDIR)

# The ca on compact storage (k^r cells) up to the largest level whose two states fit on the
# GPU (Sierpinski r = 22 on 80 GB), checked against the embedded ca where that fits too
# (beyond the thesis, section 7).  5 samples: a step at r = 22 takes about 2.4 s (H100).
# Default make run: every level still (the README's r = 22), but 1 sample, no warm-up beyond
# the verified step, batch 1, and the carpet up to r = 11 (an H200 fits r = 12: ~4 s a step);
# FULL=1 restores 1 warm-up + 5 samples and every level that fits.
ifeq ($(filter 1,$(FULL) $(QUICK)),)
COMPACT_REPS = --warmup=0 --reps=1 --batch=1$(if $(filter sierpinski-carpet,$*), --rmax=11)
else
COMPACT_REPS = --warmup=1 --reps=5
endif
$(RESDIR)/fractals_compact_%.dat: compact
	./compact --exp=storage --fractal=$* $(COMPACT_REPS) $(RUNFLAGS) --out=$(RESDIR)
