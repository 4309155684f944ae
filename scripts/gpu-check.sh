#!/usr/bin/env bash
# On a GPU machine: the gpu pytest suite, then the GPU benchmarks; a short table is printed last.
# Usage: scripts/gpu-check.sh [--compare REF] [--no-bench] [extra gpu_bench.py args]
#   --compare REF  also run REF/scripts/gpu_bench.py (a checkout of an earlier commit, e.g. made by
#                  `git archive COMMIT python scripts | tar -x -C REF`) with the same arguments, and
#                  print the engine rows side by side (scripts/compare_bench.py): one machine, one call.
#   --no-bench     the suite only.
# PYTHON overrides python3. Logs and JSON go to $OUT when it is set.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
compare="" bench_on=1
while [ $# -gt 0 ]; do
  case "$1" in
    --compare) compare=$2; shift 2 ;;
    --no-bench) bench_on=0; shift ;;
    *) break ;;
  esac
done
out=${OUT:-$(mktemp -d)}
log="$out/gpu_suite.log"
# every test module that holds gpu-marked tests (the others need nothing of a GPU)
gpu_tests=$(grep -l "mark.gpu" tests/python/test_*.py)
$PY -m pytest $gpu_tests -m gpu -q -p no:cacheprovider >"$log" 2>&1
suite=$?
grep -E "^(FAILED|ERROR)" "$log" | head -20
bench=0
if [ $bench_on = 1 ]; then
  $PY scripts/gpu_bench.py --json "$out/gpu_bench.json" "$@"
  bench=$?
  if [ -n "$compare" ]; then
    echo "== the same benchmarks at $compare"
    (cd "$compare" && PYTHONPATH=$PWD/python $PY scripts/gpu_bench.py --json "$out/gpu_bench_ref.json" "$@" \
       >"$out/gpu_bench_ref.log" 2>&1) || echo "reference benchmarks failed: see gpu_bench_ref.log"
    echo "== engine rows: $compare (before) against this tree (after)"
    $PY scripts/compare_bench.py "$out/gpu_bench_ref.json" "$out/gpu_bench.json"
  fi
fi
echo "gpu suite: $(tail -1 "$log")"
echo "gpu suite exit: $suite, benchmarks exit: $bench"
exit $(( suite != 0 || bench != 0 ))
