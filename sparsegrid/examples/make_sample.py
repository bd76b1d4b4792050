#!/usr/bin/env python3
# sparsegrid/examples/make_sample.py -- writes tiles_33x33.npy, the sample input of the users' tool
# (sparsegrid/hierarchize): two full grids of 33 x 33 points (level 5 in each dimension), float32.
#
#   python3 sparsegrid/examples/make_sample.py [OUT.npy]  (standard library only; no numpy needed)
#
# OUT.npy: where to write it (default: tiles_33x33.npy beside this script); --help: usage, exit 0;
# any other argument, or more than one, is refused with one line on stderr (exit 2).
#
# Tile 0 is the smooth test function of the error figures, f(x) = exp(-|x - 0.3|^2); tile 1 is
# the sharp field of the progressive figure (f_sharp in exp_host.cuh: a bump, a disc with a
# sharp rim, a step across a slanted line, a wave).  Point (i, j) of a tile is x = (i/32, j/32),
# i the fastest index (dimension 0), as hierarchize expects.  The file is numpy's .npy version
# 1.0, '<f4', C order, shape (2, 33, 33); numpy.load reads it.
import math
import os
import struct
import sys

N = 33  # points per dimension: 2^5 + 1


def f_test(x, y):
    return math.exp(-((x - 0.3) ** 2 + (y - 0.3) ** 2))


def f_sharp(x, y):
    r2 = (x - 0.65) ** 2 + (y - 0.35) ** 2
    b2 = (x - 0.3) ** 2 + (y - 0.6) ** 2
    return (0.5 * math.exp(-b2 / 0.02) + (0.8 if r2 < 0.18 * 0.18 else 0.0)
            + (0.3 if y > 0.2 + 0.3 * x else 0.0) + 0.15 * math.sin(12 * x + 5 * y))


def main(argv):
    if argv in (["--help"], ["-h"]):
        print("usage: make_sample.py [OUT.npy]: two 33 x 33 float32 tiles (default: tiles_33x33.npy beside it)")
        return 0
    if len(argv) > 1 or (argv and (argv[0].startswith("-") or not argv[0].endswith(".npy"))):
        sys.stderr.write("error: usage: make_sample.py [OUT.npy] (got: %s)\n" % " ".join(argv))
        return 2
    values = [f(i / (N - 1), j / (N - 1)) for f in (f_test, f_sharp) for j in range(N) for i in range(N)]
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, %d, %d), }" % (N, N)
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"  # magic + version + length: 10 bytes
    out = argv[0] if argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiles_33x33.npy")
    with open(out, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
