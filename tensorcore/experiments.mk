# tensorcore/experiments.mk -- one rule per figure's data (CONVENTIONS.md, section 7).
# Fig. 10: speedup T(lambda) / T(lambda_tc) per variant, rho = 8 16 32, r = 3..16 (sw) or
# 3..15 (rd, ca; the n x n byte arrays of 2^30 cells), QUICK: up to r = 12 / 11.  The sw file
# also holds the map-cost measurement (map=table: the kernel with lambda looked up).
run: $(RESDIR)/tensorcore_fig10_sw.dat $(RESDIR)/tensorcore_fig10_rd.dat $(RESDIR)/tensorcore_fig10_ca.dat

$(RESDIR)/tensorcore_fig10_%.dat: tensorcore
	./tensorcore --test=$* $(RUNFLAGS) --out=$(RESDIR)
