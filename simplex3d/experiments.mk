# simplex3d/experiments.mk -- one rule per figure; every .dat file is a real target.
#   speedup (GPU):  I = T_bb / T_map over n, per kernel     -> simplex3d_speedup_<kernel>.dat
#                   (write-coarse: ours, the coarsened write kernel, several configurations)
#   layout (host):  one z-slice of each map's threads        -> simplex3d_layout_<map>.dat
#   volume (host):  closed forms vs enumeration              -> simplex3d_volume_*.dat
VOLUME_DATS := $(foreach v,bb m3 m search,$(RESDIR)/simplex3d_volume_$(v).dat)
LAYOUT_MAPS := bb lambda-cubic lambda-exact recursive-log recursive-o1
# layout size: n cells per side, rho threads per block side
LAYOUT_N := 16
LAYOUT_RHO := 2

run: $(VOLUME_DATS) \
     $(foreach m,$(LAYOUT_MAPS),$(RESDIR)/simplex3d_layout_$(m).dat) \
     $(RESDIR)/simplex3d_speedup_dummy.dat $(RESDIR)/simplex3d_speedup_write.dat \
     $(RESDIR)/simplex3d_speedup_triplet.dat $(RESDIR)/simplex3d_speedup_write_perthread.dat \
     $(RESDIR)/simplex3d_speedup_write_rho4.dat $(RESDIR)/simplex3d_speedup_write-coarse.dat

# [NL] Fig. 7 / eq. 18-19 and [REC] sec. III.C: I vs n, each map, each kernel
# (write-coarse, ours: the same maps, several map blocks per CUDA block, 16-byte stores)
$(RESDIR)/simplex3d_speedup_%.dat: simplex3d
	./simplex3d $(RUNFLAGS) --kernel=$* --out=$(RESDIR)

# the same write sweep with the map evaluated by every thread (the papers' kernels)
$(RESDIR)/simplex3d_speedup_write_perthread.dat: simplex3d
	./simplex3d $(RUNFLAGS) --kernel=write --eval=thread --out=$(RESDIR)

# the write sweep with blocks of 4^3 threads (8x more blocks for every map)
$(RESDIR)/simplex3d_speedup_write_rho4.dat: simplex3d
	./simplex3d $(RUNFLAGS) --kernel=write --rho=4 --out=$(RESDIR)

# a layout picture: the threads of one map for small n (no GPU)
$(RESDIR)/simplex3d_layout_%.dat: simplex3d
	@mkdir -p $(RESDIR)
	./simplex3d --layout --map=$* --n=$(LAYOUT_N) --rho=$(LAYOUT_RHO) > $@.tmp && mv $@.tmp $@

# [REC] eq. 2-4, 16-29 and sec. III.D: volumes, extra volume vs n (m = 3) and vs m, (r, beta) search
# (one run of the program writes all four files: a grouped target)
$(VOLUME_DATS) &: volume
	./volume $(RUNFLAGS) --out=$(RESDIR)
