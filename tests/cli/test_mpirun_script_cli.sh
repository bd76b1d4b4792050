#!/usr/bin/env bash
# common/mpirun.sh against fake launchers that print the arguments they get (no MPI needed):
#  - a launcher whose --version says "Open MPI" gets -q --oversubscribe, --allow-run-as-root
#    exactly when run as root, -x NCCL_NVLS_ENABLE exactly when that variable is set (also
#    set to the empty string), then MPIRUN's own flags, then the arguments, in that order
#    (as root, also checked as the user nobody: no --allow-run-as-root);
#  - any other launcher (MPICH's "HYDRA", Intel MPI: their --version names MPI, not Open
#    MPI) gets the arguments unchanged;
#  - MPIRUN's words are split on blanks, never globbed ('*' stays '*');
#  - MPIRUN naming mpirun.sh itself runs `mpirun` from PATH (no endless self-call);
#  - the launcher's exit status is the script's (0, 2, 77, 3); no launcher: 77, one SKIP line.
. "$(dirname "$0")/lib.sh"
t=$cli_tmp
mkdir -p $t/bin $t/glob
touch $t/glob/a.txt $t/glob/b.txt
for kind in ompi mpich; do
  cat >$t/bin/fake-$kind <<EOF
#!/bin/sh
if [ "\$1" = --version ]; then
  if [ $kind = ompi ]; then echo "mpirun (Open MPI) 4.1.2"; echo "Report bugs to https://www.open-mpi.org/community/help/"
  else printf '%s\n' "HYDRA build details:" "    Version: 4.0" "    Configure options: '--prefix=/usr' 'MPICHLIB_CFLAGS=-O2'" \
         "Intel(R) MPI Library for Linux* OS, Version 2021.6"; fi
  exit 0
fi
printf '%s\n' "\$*"
for a in "\$@"; do case \$a in rc=*) exit \${a#rc=} ;; esac; done
exit 0
EOF
  chmod +x $t/bin/fake-$kind
done
cp $t/bin/fake-ompi $t/bin/mpirun
root=""
[ "$(id -u)" -eq 0 ] && root=" --allow-run-as-root"

run() { # WANT_RC WANT_OUTPUT CMD...: the output line and the exit status
  local rc_want=$1 want=$2 out rc
  shift 2
  out=$(cd $t/glob && env -u NCCL_NVLS_ENABLE timeout 20 "$@" 2>&1); rc=$?
  [ $rc -eq "$rc_want" ] && [ "$out" = "$want" ] || cli_fail "$*: exit $rc, output '$out'; want $rc_want, '$want'"
}
run 0 "-q --oversubscribe$root -np 2 prog --x=1" env MPIRUN=$t/bin/fake-ompi "$cli_mpirun" -np 2 prog --x=1
run 0 "-q --oversubscribe$root -x NCCL_NVLS_ENABLE -np 2 prog" env MPIRUN=$t/bin/fake-ompi NCCL_NVLS_ENABLE=0 "$cli_mpirun" -np 2 prog
run 0 "-q --oversubscribe$root -x NCCL_NVLS_ENABLE -np 2 prog" env MPIRUN=$t/bin/fake-ompi NCCL_NVLS_ENABLE= "$cli_mpirun" -np 2 prog
run 0 "-q --oversubscribe$root --mca btl self -np 3 prog" env MPIRUN="$t/bin/fake-ompi --mca btl self" "$cli_mpirun" -np 3 prog
run 0 "-np 2 prog --x=1" env MPIRUN=$t/bin/fake-mpich "$cli_mpirun" -np 2 prog --x=1
run 0 "-np 2 prog" env MPIRUN=$t/bin/fake-mpich NCCL_NVLS_ENABLE=1 "$cli_mpirun" -np 2 prog
run 0 "* -np 2 prog *" env MPIRUN="$t/bin/fake-mpich *" "$cli_mpirun" -np 2 prog '*'
run 0 "-q --oversubscribe$root -np 1 prog" env PATH="$t/bin:$PATH" MPIRUN="$cli_mpirun" "$cli_mpirun" -np 1 prog
run 0 "-q --oversubscribe$root -np 1 prog" env PATH="$t/bin:$PATH" "$cli_mpirun" -np 1 prog
# not root: no --allow-run-as-root (as root, the same run as the unprivileged user nobody)
if [ "$(id -u)" -eq 0 ]; then
  if command -v setpriv >/dev/null 2>&1 && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
    cp "$cli_mpirun" $t/mpirun.sh # a copy nobody can reach (the tree may sit in a private directory)
    chmod 755 $t $t/bin $t/glob $t/mpirun.sh
    run 0 "-q --oversubscribe -np 2 prog" setpriv --reuid=65534 --regid=65534 --clear-groups \
      env MPIRUN=$t/bin/fake-ompi $t/mpirun.sh -np 2 prog
  else echo "note: cannot run as an unprivileged user here: the non-root flags are not checked"; fi
fi
for rc in 2 3 77; do
  run $rc "-np 2 prog rc=$rc" env MPIRUN=$t/bin/fake-mpich "$cli_mpirun" -np 2 prog rc=$rc
  run $rc "-q --oversubscribe$root -np 2 prog rc=$rc" env MPIRUN=$t/bin/fake-ompi "$cli_mpirun" -np 2 prog rc=$rc
done
out=$(MPIRUN=$t/none/mpirun "$cli_mpirun" -np 2 prog 2>&1); rc=$?
[ $rc -eq 77 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q "^SKIP: no MPI launcher '$t/none/mpirun'" ||
  cli_fail "no launcher: exit $rc, '$out'; want 77 and one SKIP line naming it"
cli_done
