#!/usr/bin/env bash
# simplex3d's refusals name their real cause, and the options the other CLI tests leave at
# their defaults keep their documented ranges (accepted = exit 77 with no visible device,
# CUDA_VISIBLE_DEVICES=-1; refused = exit 2 with one error line):
#  - --exp=layout --n=0 (every map) is refused for --n itself ("needs --n >= 1"), not as a grid
#    past the CUDA limits, which n = 0 is not;
#  - --streams (recursive-log's launches are spread over them: li % streams) 1 and 128 accepted,
#    0 and 129 refused by the option's range.
. "$(dirname "$0")/lib.sh"
s3=simplex3d/simplex3d
cli_need "make -C simplex3d" $s3
export CUDA_VISIBLE_DEVICES=-1

for m in bb lambda-cubic lambda-exact recursive-log recursive-o1 recursive-o1-below; do
  for r in 1 2 8; do
    cli_refused_line "layout $m n=0 rho=$r" 'needs --n >= 1$' $s3 --exp=layout --map=$m --n=0 --rho=$r
  done
done

for e in write triplet write-coarse; do
  cli_nodev_ok "s3 $e --streams=1" $s3 --exp=$e --n=64 --streams=1
  cli_nodev_ok "s3 $e --streams=128" $s3 --exp=$e --n=64 --streams=128
  cli_refused_line "s3 $e --streams=0" "'--streams=0' out of range \\[1, 128\\]" $s3 --exp=$e --n=64 --streams=0
  cli_refused_line "s3 $e --streams=129" "'--streams=129' out of range \\[1, 128\\]" $s3 --exp=$e --n=64 --streams=129
done
cli_done
