# sparsegrid/experiments.mk -- the runs that write the data files (thesis chapters 2 and 5, and beyond them; ./sparsegrid --exp=list).
# Each data file is a real target: only what is missing is measured again.  RUN_<stem> holds the
# options of the run that writes $(RESDIR)/sparsegrid_<stem>.dat; the rule at the end runs it.
STEMS := fig5_1_2d fig5_2_3d fig5_3_4d figx1_bandwidth figx2_error figx3_tune figx4_sparse_float \
         figx4_sparse_double figx5_sparse_error figx6_progressive figx7_layout figx9_cpu_roofline
# make run (common.mk): the host-only stems need no GPU, the others are skipped where there is none
HOST_STEMS := figx2_error figx5_sparse_error figx6_progressive figx9_cpu_roofline
HOST_DATA := $(foreach s,$(HOST_STEMS),$(RESDIR)/sparsegrid_$(s).dat)
GPU_DATA := $(foreach s,$(filter-out $(HOST_STEMS),$(STEMS)),$(RESDIR)/sparsegrid_$(s).dat)

# Fig. 5.1: 2D tiles 33x33, Nt = 1..7000 (log-spaced subset)
RUN_fig5_1_2d := --exp=fig5_1
# Fig. 5.2: 3D tiles 9x9x9, Nt = 1..2500
RUN_fig5_2_3d := --exp=fig5_2
# Fig. 5.3: 4D tiles 9x9x5x5, Nt = 1..600
RUN_fig5_3_4d := --exp=fig5_3
# beyond the thesis: up to >= 1 GiB of tiles, GB/s against a copy kernel of the same bytes
RUN_figx1_bandwidth := --exp=bandwidth
# beyond the thesis (its future work): sparse vs full grid interpolation error (host only)
RUN_figx2_error := --exp=truncation
# beyond the thesis: the pipelined fused kernel's threads x tiles per group x stages at >= 1 GiB
RUN_figx3_tune := --exp=tune
# beyond the thesis (its future work): real sparse grids, d = 2..6, batched, GB/s vs copy / host triad
RUN_figx4_sparse_float := --exp=sparse --precision=float
RUN_figx4_sparse_double := --exp=sparse --precision=double
# beyond the thesis: error vs points of real sparse grids and full grids, fitted rates (host only)
RUN_figx5_sparse_error := --exp=sparse-error
# thesis Fig. 2.5: progressive reconstruction from a subspace-ordered stream (host only; it
# also writes sparsegrid_figx6_progressive_pictures.dat)
RUN_figx6_progressive := --exp=progressive
# thesis Fig. 2.9: the three tile shapes in place vs in subspace order (GPU and CPU)
RUN_figx7_layout := --exp=layout
# beyond the thesis: every CPU version (cpu_blocked.h: cache-blocked) against the host's triad, float and double (host only)
RUN_figx9_cpu_roofline := --exp=cpu-roofline

# The default `make run` shortens the longest sweeps, keeping every row a figure, a README
# headline or a README table reads and every x range (d = 2..6, every batch size, every shape);
# `make run FULL=1` runs the lines above unchanged (results-ref/), QUICK=1 is left as it is.
ifneq ($(FULL),1)
ifneq ($(QUICK),1)
# 1 warm-up and 3 samples per row (FULL=1: 3 and 10)
SHORT_REPS := --warmup=1 --reps=3
# figx4: the figure's rows (copy, table, multi G=1 U=4, cpu_shift) and every k_sparse_pipe plan
# (FULL=1 adds k_sparse computed offsets, the other k_sparse_multi and k_sparse_stream plans,
# k_sparse_clu, k_sparse_fam and cpu_tuned)
SPARSE_IMPLS_SHORT := --sparse-impls=cpu_shift,gpu_sparse_table,gpu_sparse_multi_g1_u4,gpu_sparse_pipe
RUN_figx1_bandwidth += $(SHORT_REPS)
RUN_figx3_tune += $(SHORT_REPS)
RUN_figx4_sparse_float += $(SPARSE_IMPLS_SHORT) $(SHORT_REPS)
RUN_figx4_sparse_double += $(SPARSE_IMPLS_SHORT) $(SHORT_REPS)
RUN_figx7_layout += $(SHORT_REPS)
RUN_figx9_cpu_roofline += $(SHORT_REPS)
endif
endif

$(RESDIR)/sparsegrid_%.dat: sparsegrid
	$(if $(RUN_$*),,$(error $@: no run writes this file alone (experiments.mk: RUN_$*)))
	./sparsegrid $(RUNFLAGS) $(RUN_$*) --out=$(RESDIR)
