# experiments.mk -- one rule per paper figure / table, each a real .dat target in $(RESDIR).
# make run: the paper's figures (Figs. 3.3-3.11, shortened below), Tables 4.1, 4.2 and the two
# files the README's first screen reads (sort_scale, tab4_2_best); make run
# FULL=1: those with the full sweeps (the results-ref/ command lines) and the files beyond the
# paper (LONG_DATA); QUICK=1: all of them, small.  Caps (README): CPU timings up to 2^22
# elements (the default run: 2^21), k-D trees up to 2^21, brute force up to 2^13; the GPU goes
# to 2^24.
R := $(RESDIR)/hashmesh
HM := ./hashmesh $(RUNFLAGS) --out=$(RESDIR)
FIG_DATS := $(R)_fig3_3_sort1d.dat $(R)_fig3_4_sort_ratio.dat $(R)_fig3_5_sort2d.dat \
            $(R)_fig3_6_neigh1d.dat $(R)_fig3_7_neigh2d.dat $(R)_fig3_9_remap1d.dat \
            $(R)_fig3_10_remap2d.dat $(R)_fig3_11_table.dat

# timings must not overlap: never run two experiments at once, even under make -j
.NOTPARALLEL:

# beyond the paper: the baselines a user would pick (best.h, CUB radix on the 32-bit bucket
# index), cold-cache timings, and past the perfect table (compact hash, clustered keys)
BEST_DATS := $(R)_sort_best.dat $(R)_tab4_2_best.dat $(R)_tab4_2_best_cold.dat $(R)_tab4_1_best.dat \
             $(R)_levmax_neigh.dat $(R)_clustered_sort.dat $(R)_sort_scale_uniform.dat \
             $(R)_sort_cpu_scale.dat

# make run (common.mk): every experiment here needs a GPU (sort_cpu, which times CPU sorts only,
# also exits 77 without one); no HOST_DATA.  The files beyond the paper are LONG_DATA (FULL=1),
# except the two the README's first screen reads (GPU sorts to 2^27; Table 4.2 against CUB radix).
HEADLINE_DATS := $(R)_sort_scale_uniform.dat $(R)_tab4_2_best.dat
GPU_DATA := $(FIG_DATS) $(R)_tab4_1_speedups.dat $(R)_tab4_2_hash_vs_radix.dat $(HEADLINE_DATS)
LONG_DATA := $(filter-out $(HEADLINE_DATS),$(BEST_DATS))
best: $(BEST_DATS)

# Default make run (not FULL=1, not QUICK=1): the figures keep every size and method but time one
# sample a row (the slow CPU rows: 3 runs instead of 5) and the CPU rows up to 2^21 (Table 4.1's
# size); FULL=1 restores 10 samples and the CPU rows at 2^22.
ifeq ($(filter 1,$(FULL) $(QUICK)),)
FIG_TRIM := $(empty) --reps=1 --cpu-max-log2=21
endif

$(R)_fig3_3_sort1d.dat: hashmesh       # Fig. 3.3: 1D sort vs n
	$(HM) --exp=fig3_3$(FIG_TRIM)
$(R)_fig3_4_sort_ratio.dat: hashmesh   # Fig. 3.4: 1D sort vs dmax/dmin
	$(HM) --exp=fig3_4$(FIG_TRIM)
$(R)_fig3_5_sort2d.dat: hashmesh       # Fig. 3.5: 2D sort
	$(HM) --exp=fig3_5$(FIG_TRIM)
$(R)_fig3_6_neigh1d.dat: hashmesh      # Fig. 3.6: 1D neighbours
	$(HM) --exp=fig3_6$(FIG_TRIM)
$(R)_fig3_7_neigh2d.dat: hashmesh      # Fig. 3.7: 2D neighbours
	$(HM) --exp=fig3_7$(FIG_TRIM)
$(R)_fig3_9_remap1d.dat: hashmesh      # Fig. 3.9: 1D remap
	$(HM) --exp=fig3_9$(FIG_TRIM)
$(R)_fig3_10_remap2d.dat: hashmesh     # Fig. 3.10: 2D remap
	$(HM) --exp=fig3_10$(FIG_TRIM)
$(R)_fig3_11_table.dat: hashmesh       # Fig. 3.11: table look-up
	$(HM) --exp=fig3_11$(FIG_TRIM)
# Table 4.1: speed-ups at ~2 million elements, read from the figures' data
$(R)_tab4_1_speedups.dat: hashmesh $(filter-out $(R)_fig3_4_sort_ratio.dat,$(FIG_DATS))
	$(HM) --exp=tab4_1
$(R)_tab4_2_hash_vs_radix.dat: hashmesh  # Table 4.2: GPU hash sort vs CUB radix sort
	$(HM) --exp=tab4_2

$(R)_sort_best.dat: hashmesh           # 1D sort vs introsort, LSD radix (1 core, all), CUB radix 64/32-bit
	$(HM) --exp=sort_best
$(R)_tab4_2_best.dat: hashmesh         # Table 4.2 against CUB radix on the 32-bit bucket index
	$(HM) --exp=tab4_2_best
$(R)_tab4_2_best_cold.dat: hashmesh    # the same, cold L2 (every sample one run after a 2x L2 overwrite)
	$(HM) --exp=tab4_2_best --flush-l2
$(R)_tab4_1_best.dat $(R)_tab4_1_best_times.dat &: hashmesh  # Table 4.1 against the best baselines
	$(HM) --exp=tab4_1_best
$(R)_levmax_neigh.dat $(R)_levmax_remap.dat &: hashmesh  # 2D neighbours and remap vs levmax: perfect, compact hash, k-D tree
	$(HM) --exp=levmax
$(R)_clustered_sort.dat: hashmesh      # 1D sort of clustered keys (Pareto gaps)
	$(HM) --exp=clustered
$(R)_sort_scale_uniform.dat $(R)_sort_scale_clustered.dat &: hashmesh  # GPU sorts to 2^27: paper hash, CUB radix32, partitioned hash
	$(HM) --exp=sort_scale
$(R)_sort_cpu_scale.dat: hashmesh      # CPU sorts on all cores: partitioned hash, OpenMP hash, OpenMP LSD radix
	$(HM) --exp=sort_cpu
# the partitioned sorts' plan choices one at a time (not part of `run`: the record behind the automatic plans)
$(R)_sort_variants.dat $(R)_sort_cpu_variants.dat &: hashmesh
	$(HM) --exp=sort_variants
.PHONY: best
