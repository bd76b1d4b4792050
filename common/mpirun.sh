#!/bin/sh
# common/mpirun.sh -- the collection's one MPI launch command (common/README.md, "MPI"):
# mpirun plus the flags Open MPI needs for the commands in the READMEs to work as written.
#
#   common/mpirun.sh -np 2 hashmesh/neighbors-mpi --in=hashmesh/examples/mesh_small.txt --out=nb.txt
#   common/mpirun.sh -np 2 simplex2d/lambda-mpi
#
# Where the launcher is Open MPI's (its --version says "Open MPI"), it adds
#   -q                   no mpirun banners: a failed run ends with the program's own one error
#                        line (every rank exits by itself with the program's code, which
#                        mpirun returns);
#   --oversubscribe      more ranks than cores (e.g. -np 4 on a 2-core machine);
#   --allow-run-as-root  only when run as root (containers), which Open MPI refuses otherwise;
#   -x NCCL_NVLS_ENABLE  only when that variable is set: its value reaches every rank.
# Any other launcher (MPICH's mpiexec, srun) gets the arguments unchanged.
#
# MPIRUN (environment): the launcher to run, with any flags of its own, instead of `mpirun`,
# e.g. MPIRUN="mpirun --mca btl self,vader" or MPIRUN=/opt/openmpi/bin/mpirun.
# Exit status: the launcher's (the programs' own codes: 0, 1, 2, 77); 77 with one SKIP line
# when no launcher is installed.
launcher=${MPIRUN:-mpirun}
case "$launcher" in # MPIRUN naming this script itself would call it forever
    *mpirun.sh*) launcher=mpirun ;;
esac
set -f # the launcher's words are split on blanks, never globbed
set -- $launcher "$@"
command -v "$1" >/dev/null 2>&1 || {
    echo "SKIP: no MPI launcher '$1' (install Open MPI: openmpi-bin libopenmpi-dev, or set MPIRUN)" >&2
    exit 77
}
if "$1" --version 2>/dev/null | grep -q 'Open MPI'; then
    prog=$1
    shift
    extra="-q --oversubscribe"
    [ "$(id -u)" -eq 0 ] && extra="$extra --allow-run-as-root"
    [ -n "${NCCL_NVLS_ENABLE+x}" ] && extra="$extra -x NCCL_NVLS_ENABLE"
    set -- "$prog" $extra "$@"
fi
exec "$@"
