# sparsegrid/experiments.mk -- one rule per data file (thesis chapters 2 and 5, and beyond them; ./sparsegrid --exp=list).
# Each data file is a real target: only what is missing is measured again.
run: $(RESDIR)/sparsegrid_fig5_1_2d.dat $(RESDIR)/sparsegrid_fig5_2_3d.dat \
     $(RESDIR)/sparsegrid_fig5_3_4d.dat $(RESDIR)/sparsegrid_figx1_bandwidth.dat \
     $(RESDIR)/sparsegrid_figx2_error.dat $(RESDIR)/sparsegrid_figx3_tune.dat \
     $(RESDIR)/sparsegrid_figx4_sparse_float.dat $(RESDIR)/sparsegrid_figx4_sparse_double.dat \
     $(RESDIR)/sparsegrid_figx5_sparse_error.dat $(RESDIR)/sparsegrid_figx6_progressive.dat \
     $(RESDIR)/sparsegrid_figx7_layout.dat

# Fig. 5.1: 2D tiles 33x33, Nt = 1..7000 (log-spaced subset)
$(RESDIR)/sparsegrid_fig5_1_2d.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=fig5_1 --out=$(RESDIR)
# Fig. 5.2: 3D tiles 9x9x9, Nt = 1..2500
$(RESDIR)/sparsegrid_fig5_2_3d.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=fig5_2 --out=$(RESDIR)
# Fig. 5.3: 4D tiles 9x9x5x5, Nt = 1..600
$(RESDIR)/sparsegrid_fig5_3_4d.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=fig5_3 --out=$(RESDIR)
# beyond the thesis: up to >= 1 GiB of tiles, GB/s against a copy kernel of the same bytes
$(RESDIR)/sparsegrid_figx1_bandwidth.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=bandwidth --out=$(RESDIR)
# beyond the thesis (its future work): sparse vs full grid interpolation error (host only)
$(RESDIR)/sparsegrid_figx2_error.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=truncation --out=$(RESDIR)
# beyond the thesis: the pipelined fused kernel's threads x tiles per group x stages at >= 1 GiB
$(RESDIR)/sparsegrid_figx3_tune.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=tune --out=$(RESDIR)
# beyond the thesis (its future work): real sparse grids, d = 2..6, batched, GB/s vs copy / host triad
$(RESDIR)/sparsegrid_figx4_sparse_float.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=sparse --precision=float --out=$(RESDIR)
$(RESDIR)/sparsegrid_figx4_sparse_double.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=sparse --precision=double --out=$(RESDIR)
# beyond the thesis: error vs points of real sparse grids and full grids, fitted rates (host only)
$(RESDIR)/sparsegrid_figx5_sparse_error.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=sparse-error --out=$(RESDIR)
# thesis Fig. 2.5: progressive reconstruction from a subspace-ordered stream (host only)
$(RESDIR)/sparsegrid_figx6_progressive.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=progressive --out=$(RESDIR)
# thesis Fig. 2.9: the three tile shapes in place vs in subspace order (GPU and CPU)
$(RESDIR)/sparsegrid_figx7_layout.dat: sparsegrid
	./sparsegrid $(RUNFLAGS) --exp=layout --out=$(RESDIR)
