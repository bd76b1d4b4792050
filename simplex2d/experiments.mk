# simplex2d/experiments.mk -- one rule per paper figure / table; each makes a real .dat file.
# Sweep knobs (the paper's x axis: N = 1024 .. 30720 in steps of 1024, rho = 16):
# first, last and step of the n sweep of Fig. 3 and Fig. 5
NMIN ?= 1024
NMAX ?= 30720
NSTEP ?= 1024
# block side of the sweeps (the paper's rho)
RHO ?= 16
# n of the rho table and of the coarsened-write experiment (2^15; QUICK: 2^13)
NBIG ?= 32768
ifeq ($(QUICK),1)
NBIG := 8192
endif
# the layout pictures: small n and rho
LAYOUT_N ?= 32
LAYOUT_RHO ?= 4
LAYOUT_MAPS := bb rb rec utm lambda-exact recursive

SWEEP := --nmin=$(NMIN) --nmax=$(NMAX) --nstep=$(NSTEP) --rho=$(RHO)
FIG5_KERNELS := dummy edm4d collision3d collision1d write map
# rho sweeps (beyond the paper's rho = 16): Fig. 3 and Fig. 5 (map, write) at each rho of RHOS,
# n from RMIN to RMAX in steps of RSTEP: past 2^15, and n not a multiple of 1024 (block counts
# m with many set bits, the recursive map's piece search); one folder per rho
RHOS ?= 8 16 32
RMIN ?= 1536
RMAX ?= 65535
RSTEP ?= 2047
RSWEEP := --nmin=$(RMIN) --nmax=$(RMAX) --nstep=$(RSTEP)
RHO_FILES := $(foreach r,$(RHOS),$(RESDIR)/rho$(r)/simplex2d_fig3_dummy.dat \
             $(RESDIR)/rho$(r)/simplex2d_fig5_map.dat $(RESDIR)/rho$(r)/simplex2d_fig5_write.dat)

# make run (common.mk): HOST_DATA needs no GPU, GPU_DATA is skipped where there is none
HOST_DATA := $(addprefix $(RESDIR)/simplex2d_layout_,$(addsuffix .dat,$(LAYOUT_MAPS)))
GPU_DATA := $(RESDIR)/simplex2d_fig3_dummy.dat \
     $(addprefix $(RESDIR)/simplex2d_fig5_,$(addsuffix .dat,$(FIG5_KERNELS))) \
     $(RESDIR)/simplex2d_tab_rho.dat $(RESDIR)/simplex2d_coarse_write.dat \
     $(RESDIR)/simplex2d_tab1_sblocks.dat
# make run FULL=1 (or QUICK=1) also: the rho sweeps, beyond the paper (about 166 s of the full
# run's 214 s on one H200)
LONG_DATA := $(RHO_FILES)

# Fig. 3: improvement of the lambda square-root variants over BB, dummy kernel
$(RESDIR)/simplex2d_fig3_dummy.dat: simplex2d
	./simplex2d $(RUNFLAGS) --exp=fig3 $(SWEEP) --out=$(RESDIR)

# Fig. 5: improvement of every map over BB, one file per kernel (write and map: ours)
$(RESDIR)/simplex2d_fig5_%.dat: simplex2d
	./simplex2d $(RUNFLAGS) --exp=fig5 --kernel=$* $(SWEEP) --out=$(RESDIR)

# the rho sweeps: Fig. 3 (zero work) and Fig. 5 (map, write) per rho, in <RESDIR>/rho<r>/
$(RESDIR)/rho%/simplex2d_fig3_dummy.dat: simplex2d
	./simplex2d $(RUNFLAGS) --exp=fig3 $(RSWEEP) --rho=$* --out=$(RESDIR)/rho$*
$(RESDIR)/rho%/simplex2d_fig5_map.dat: simplex2d
	./simplex2d $(RUNFLAGS) --exp=fig5 --kernel=map $(RSWEEP) --rho=$* --out=$(RESDIR)/rho$*
$(RESDIR)/rho%/simplex2d_fig5_write.dat: simplex2d
	./simplex2d $(RUNFLAGS) --exp=fig5 --kernel=write $(RSWEEP) --rho=$* --out=$(RESDIR)/rho$*

# Table 1's "sblocks" (resident blocks of the whole GPU) for this GPU and our kernels
$(RESDIR)/simplex2d_tab1_sblocks.dat: simplex2d
	./simplex2d $(RUNFLAGS) --exp=sblocks --out=$(RESDIR)

# README table: rho in {8, 16, 32} at n = NBIG, dummy and write kernels, every map
$(RESDIR)/simplex2d_tab_rho.dat: simplex2d
	./simplex2d $(RUNFLAGS) --exp=rho --n=$(NBIG) --out=$(RESDIR)

# Coarsened triangular write vs a linear fill of the same bytes (GB/s)
$(RESDIR)/simplex2d_coarse_write.dat: simplex2d
	./simplex2d $(RUNFLAGS) --exp=coarse --n=$(NBIG) --rho=$(RHO) --out=$(RESDIR)

# Fig. 2 / Fig. 4 drawings as data (no GPU): which block/thread covers which cell
$(RESDIR)/simplex2d_layout_%.dat: simplex2d
	@mkdir -p $(RESDIR)
	./simplex2d --exp=layout --map=$* --n=$(LAYOUT_N) --rho=$(LAYOUT_RHO) > $@.tmp && mv $@.tmp $@
