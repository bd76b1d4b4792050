# simplex3d/experiments.mk -- one rule per figure; every .dat file is a real target.
#   speedup (GPU):  I = T_bb / T_map over n, per kernel     -> simplex3d_speedup_<kernel>.dat
#                   (map: the map alone, no store; empty: the grid's launch alone)
#                   (*-coarse: ours, the coarsened kernels, several configurations;
#                   _nlist: sizes around nb = 2^k + 1; _rho<R>: other block sides)
#   layout (host):  one z-slice of each map's threads        -> simplex3d_layout_<map>.dat
#   volume (host):  closed forms vs enumeration              -> simplex3d_volume_*.dat
VOLUME_DATS := $(foreach v,bb m3 m search,$(RESDIR)/simplex3d_volume_$(v).dat)
LAYOUT_MAPS := bb lambda-cubic lambda-exact recursive-log recursive-o1
# layout size: n cells per side, rho threads per block side
LAYOUT_N := 16
LAYOUT_RHO := 2

# make run (common.mk): HOST_DATA needs no GPU, GPU_DATA is skipped where there is none
HOST_DATA := $(VOLUME_DATS) $(foreach m,$(LAYOUT_MAPS),$(RESDIR)/simplex3d_layout_$(m).dat)
GPU_DATA := $(RESDIR)/simplex3d_speedup_dummy.dat $(RESDIR)/simplex3d_speedup_write.dat \
     $(RESDIR)/simplex3d_speedup_map.dat $(RESDIR)/simplex3d_speedup_empty.dat \
     $(RESDIR)/simplex3d_speedup_triplet.dat $(RESDIR)/simplex3d_speedup_write_perthread.dat \
     $(RESDIR)/simplex3d_speedup_write-coarse.dat $(RESDIR)/simplex3d_speedup_write_rho2.dat \
     $(RESDIR)/simplex3d_speedup_dummy-coarse.dat $(RESDIR)/simplex3d_speedup_triplet-coarse.dat
# make run FULL=1 (or QUICK=1) also: the three longest sweeps, beyond the paper (about 66 s of
# the full run's 147 s on one H200): rho = 4 blocks, the sizes around 2^k, write-coarse at rho = 4
LONG_DATA := $(RESDIR)/simplex3d_speedup_write_rho4.dat $(RESDIR)/simplex3d_speedup_write_nlist.dat \
     $(RESDIR)/simplex3d_speedup_write-coarse_rho4.dat

# [NL] Fig. 7 / eq. 18-19 and [REC] sec. III.C: I vs n, each map, each kernel
# (write-coarse, ours: the same maps, several map blocks per CUDA block, 16-byte stores)
$(RESDIR)/simplex3d_speedup_%.dat: simplex3d
	./simplex3d $(RUNFLAGS) --exp=$* --out=$(RESDIR)

# the same write sweep with the map evaluated by every thread (as [NL]'s 2D kernels do)
$(RESDIR)/simplex3d_speedup_write_perthread.dat: simplex3d
	./simplex3d $(RUNFLAGS) --exp=write --eval=thread --out=$(RESDIR)

# the write sweep with blocks of 4^3 threads (8x more blocks for every map)
$(RESDIR)/simplex3d_speedup_write_rho4.dat: simplex3d
	./simplex3d $(RUNFLAGS) --exp=write --rho=4 --out=$(RESDIR)

# non-power-of-two sizes (rho = 8): nb = 2^k - 1, 2^k, 2^k + 1 for 2^k = 32 .. 512, where
# recursive-o1 rounds nb up to 2^(k+1) and recursive-o1-below does not
# largest n of the extra sweeps below (QUICK: small)
ifeq ($(QUICK),1)
NLIST := 248,256,264,504,512,520
NMAX_RHO2 := 256
NMAX_COARSE := 512
NMAX_TRIPLET := 256
else
NLIST := 248,256,264,504,512,520,1016,1024,1032,2040,2048,2056,4088,4104
NMAX_RHO2 := 1024
NMAX_COARSE := 2048
NMAX_TRIPLET := 1024
endif
$(RESDIR)/simplex3d_speedup_write_nlist.dat: simplex3d
	./simplex3d $(RUNFLAGS) --exp=write --nlist=$(NLIST) --out=$(RESDIR)

# the write sweep with blocks of 2^3 threads (64x more blocks than rho = 8; to n = 1024)
$(RESDIR)/simplex3d_speedup_write_rho2.dat: simplex3d
	./simplex3d $(RUNFLAGS) --exp=write --rho=2 --nmax=$(NMAX_RHO2) --out=$(RESDIR)

# write-coarse with rho = 4 map blocks (to n = 2048: bb's 1 G map blocks at n = 4096 take ~0.6 s a launch)
$(RESDIR)/simplex3d_speedup_write-coarse_rho4.dat: simplex3d
	./simplex3d $(RUNFLAGS) --exp=write-coarse --rho=4 --nmax=$(NMAX_COARSE) --out=$(RESDIR)

# the coarsened dummy (to n = 2048) and triplet (to n = 1024) kernels, rho = 8
$(RESDIR)/simplex3d_speedup_dummy-coarse.dat: simplex3d
	./simplex3d $(RUNFLAGS) --exp=dummy-coarse --nmax=$(NMAX_COARSE) --out=$(RESDIR)
$(RESDIR)/simplex3d_speedup_triplet-coarse.dat: simplex3d
	./simplex3d $(RUNFLAGS) --exp=triplet-coarse --nmax=$(NMAX_TRIPLET) --out=$(RESDIR)

# a layout picture: the threads of one map for small n (no GPU)
$(RESDIR)/simplex3d_layout_%.dat: simplex3d
	@mkdir -p $(RESDIR)
	./simplex3d --exp=layout --map=$* --n=$(LAYOUT_N) --rho=$(LAYOUT_RHO) > $@.tmp && mv $@.tmp $@

# [REC] eq. 2-4, 16-29 and sec. III.D: volumes, extra volume vs n (m = 3) and vs m, (r, beta) search
# (one run of the program writes all four files: a grouped target)
$(VOLUME_DATS) &: volume
	./volume $(RUNFLAGS) --out=$(RESDIR)
