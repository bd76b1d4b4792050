# tensorcore/experiments.mk -- one make rule per data file of Fig. 10 (section 6) and its
# extensions (v2's readings, the spread, other fractals), each a run of one --exp experiment.
# Fig. 10: speedup T(lambda) / T(lambda_tc) per variant, rho = 8 16 32, r = 3..16 (sw) or
# 3..15 (rd, ca; the n x n byte arrays of 2^30 cells), QUICK: up to r = 12 / 11.  The sw file
# also holds the map-cost measurement (map=table: the kernel with lambda looked up).
# (make run, common.mk: every file here needs a GPU; no HOST_DATA)
GPU_DATA += $(RESDIR)/tensorcore_fig10_sw.dat $(RESDIR)/tensorcore_fig10_rd.dat $(RESDIR)/tensorcore_fig10_ca.dat

$(RESDIR)/tensorcore_fig10_%.dat: tensorcore
	./tensorcore --exp=fig10 --work=$* $(RUNFLAGS) --out=$(RESDIR)

# Both readings of variant 2 (section 5.2, Fig. 8), re-paired from the Fig. 10 data (host, but
# from GPU data: in GPU_DATA).
GPU_DATA += $(RESDIR)/tensorcore_v2readings_sw.dat $(RESDIR)/tensorcore_v2readings_rd.dat $(RESDIR)/tensorcore_v2readings_ca.dat
$(RESDIR)/tensorcore_v2readings_%.dat: $(RESDIR)/tensorcore_fig10_%.dat v2_readings.sh
	./v2_readings.sh $< $@

# Repeated runs (the spread of every quoted speedup): `make spread` runs the sweep twice
# more at r >= 14 and writes tensorcore_spread_<work>.dat (spread.sh) next to the data.
spread: $(RESDIR)/tensorcore_fig10_sw.dat $(RESDIR)/tensorcore_fig10_rd.dat $(RESDIR)/tensorcore_fig10_ca.dat tensorcore
	for i in 2 3; do ./tensorcore --exp=fig10 --work=all --rmin=14 $(RUNFLAGS) --out=$(RESDIR)/run$$i || exit 1; done
	for t in sw rd ca; do ./spread.sh $(RESDIR)/tensorcore_spread_$$t.dat $(RESDIR)/tensorcore_fig10_$$t.dat \
	  $(RESDIR)/run2/tensorcore_fig10_$$t.dat $(RESDIR)/run3/tensorcore_fig10_$$t.dat || exit 1; done

# v1's encoding on other NBB fractals of Table 1 (the thesis: every NBB fractal), work sw.
# candy (s = 4): v1 and mma at rho = 16 only (rho = 4 leaves a partial warp; README).
NBB_FRACTALS := candelabra vicsek sierpinski-carpet h-fractal candy
nbb: $(foreach f,$(NBB_FRACTALS),$(RESDIR)/tensorcore_nbb_$(f)_sw.dat)
$(RESDIR)/tensorcore_nbb_%_sw.dat: tensorcore
	./tensorcore --exp=nbb --fractal=$* --work=sw $(RUNFLAGS) --out=$(RESDIR)
