#!/usr/bin/env bash
# tests/run.sh, the runner itself, with stand-in tests and a stand-in compute-sanitizer (no GPU
# needed): PASS / FAIL / SKIP by exit status (0, other, 77) and by timeout; a memcheck: or
# racecheck: run SKIPs where the plain run of the same test skipped, FAILs on a sanitizer report,
# and PASSes for a GPU test whose checks are host-only (the real compute-sanitizer fails such a
# program -- "terminated before first instrumented API call" -- unless told
# --require-cuda-init=no); the summary line counts them; exit status 0 iff nothing failed.
# A relative test path given from another directory, each test run from the repository root;
# with no arguments, the default set (bin/, bin/asan/, cli/test_*.sh but not lib.sh, memcheck: and
# racecheck: runs of the GPU tests) on a scratch tests/ directory.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.."
t=$cli_tmp
mk() { printf '#!/bin/sh\n%s\n' "$2" > "$t/$1"; chmod +x "$t/$1"; }
mk ok 'echo fine; exit 0'
mk bad 'echo broken; exit 1'
mk nogpu 'echo "SKIP: no usable GPU"; exit 77'
mk slow 'sleep 5'
mk hostonly 'echo "host checks only"; exit 0'   # makes no CUDA call
mk racy 'echo RACE; exit 0'                     # the stand-in sanitizer reports this one
# The stand-in compute-sanitizer: --tool T, --error-exitcode=E, --require-cuda-init=yes|no, then
# the program.  Like the real one it exits 255 when the program made no CUDA call and
# --require-cuda-init is not no (here: every program counts as making none); a program printing
# RACE is a report (exit E); else the program's own status.
cat > "$t/fake-sanitizer" <<'EOS'
#!/bin/bash
tool=; e=0; req=yes
while [ $# -gt 0 ]; do case $1 in
  --tool) tool=$2; shift 2;; --error-exitcode=*) e=${1#*=}; shift;; --require-cuda-init=*) req=${1#*=}; shift;;
  --*) echo "fake-sanitizer: unknown option $1"; exit 9;; *) break;; esac; done
echo "tool=$tool" >> "$(dirname "$0")/tools.txt"
out=$("$@"); rc=$?; echo "$out"
[ "$req" = no ] || { echo "========= Error: Target application terminated before first instrumented API call"; exit 255; }
case $out in *RACE*) echo "========= $tool: 1 error"; exit $e;; esac
exit $rc
EOS
chmod +x "$t/fake-sanitizer"

out=$(SANITIZER=$t/fake-sanitizer TEST_TIMEOUT=1 tests/run.sh $t/ok $t/bad $t/nogpu $t/slow $t/hostonly \
      memcheck:$t/nogpu memcheck:$t/hostonly racecheck:$t/racy memcheck:$t/ok 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -ne 0 ] || cli_fail "runner: exit 0 although tests failed"
has() { printf '%s\n' "$out" | grep -Eq "$1" || cli_fail "runner: no line matching '$1'"; }
has '^PASS  ok \('
has '^FAIL  bad \(exit 1\)'
has '^SKIP  nogpu: no usable GPU'
has '^FAIL  slow \(timeout after 1s\)'
has '^PASS  hostonly \('
has '^SKIP  memcheck/nogpu: the plain run skipped'
has '^PASS  memcheck/hostonly \('
has '^FAIL  racecheck/racy \(exit 1\)'
has '^PASS  memcheck/ok \('
has '^4 passed, 3 failed, 2 skipped$'
grep -qx 'tool=racecheck' $t/tools.txt || cli_fail "runner: racecheck: did not run the racecheck tool"
[ "$(grep -c 'tool=memcheck' $t/tools.txt)" = 2 ] || cli_fail "runner: memcheck runs: $(grep -c 'tool=memcheck' $t/tools.txt), want 2 (the skipped one runs nothing)"

# nothing failed: exit 0
out=$(SANITIZER=$t/fake-sanitizer tests/run.sh $t/ok memcheck:$t/ok 2>&1) || cli_fail "runner: exit $? with nothing failed: $out"
printf '%s\n' "$out" | grep -qx '2 passed, 0 failed, 0 skipped' || cli_fail "runner: summary '$out'"
# no sanitizer installed: the sanitizer runs SKIP, they do not fail
out=$(SANITIZER=/nonexistent/compute-sanitizer PATH=/usr/bin:/bin tests/run.sh $t/ok memcheck:$t/ok 2>&1) || cli_fail "runner: no sanitizer -> exit $?: $out"
printf '%s\n' "$out" | grep -q '^SKIP  memcheck/ok: .*not installed' || cli_fail "runner: no sanitizer: no SKIP line: $out"

# a relative test path given from another directory names the file there, and every test runs
# from the repository root (tests read their inputs by paths relative to it)
mk where 'test -f tests/run.sh && test -d common || { echo "run from $PWD, not the repository root"; exit 1; }'
runner=$PWD/tests/run.sh
out=$(cd $t && TEST_SANITIZE=0 "$runner" ./ok ./where 2>&1) || cli_fail "runner from another directory: exit $?: $out"
printf '%s\n' "$out" | grep -q '^PASS  where (' && printf '%s\n' "$out" | grep -qx '2 passed, 0 failed, 0 skipped' ||
  cli_fail "runner from another directory, relative paths: $out"

# no arguments: every executable of tests/bin and tests/bin/asan (as asan/NAME), every
# tests/cli/test_*.sh (not lib.sh), then memcheck: for each bin/NAME built from gpu/NAME.cu and
# racecheck: for those named in TEST_RACECHECK -- here on a scratch tests/ directory
s=$t/tree/tests
mkdir -p $s/bin/asan $s/gpu $s/cli
cp tests/run.sh $s/
printf '#!/bin/sh\nexit 0\n' > $s/bin/hosty; printf '#!/bin/sh\nexit 0\n' > $s/bin/asan/hosty
printf '#!/bin/sh\nexit 0\n' > $s/bin/gputest; : > $s/gpu/gputest.cu
printf 'not a test\n' > $s/bin/notes.txt # not executable: not run
printf '#!/usr/bin/env bash\nexit 0\n' > $s/cli/test_x_cli.sh
printf '#!/usr/bin/env bash\necho "lib.sh run as a test"; exit 1\n' > $s/cli/lib.sh
chmod +x $s/bin/hosty $s/bin/asan/hosty $s/bin/gputest $s/cli/*.sh
rm -f $t/tools.txt
out=$(SANITIZER=$t/fake-sanitizer TEST_RACECHECK=gputest $s/run.sh 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || cli_fail "runner, no arguments: exit $rc"
got=$(printf '%s\n' "$out" | sed -n 's/^\(PASS\|FAIL\|SKIP\)  \([^ :]*\).*/\2/p' | sort | tr '\n' ' ')
[ "$got" = "asan/hosty gputest hosty memcheck/gputest racecheck/gputest test_x_cli.sh " ] ||
  cli_fail "runner, no arguments: ran '$got', want asan/hosty gputest hosty memcheck/gputest racecheck/gputest test_x_cli.sh"
cli_done
