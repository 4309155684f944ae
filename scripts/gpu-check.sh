#!/usr/bin/env bash
# On a GPU machine: the gpu pytest suite, then the GPU benchmarks; a short table is printed last.
# Usage: scripts/gpu-check.sh [extra gpu_bench.py args]   (PYTHON overrides python3)
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
export PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH}
log=$(mktemp)
$PY -m pytest tests/python/test_gpu.py tests/python/test_kernels_compile.py -m gpu -q -p no:cacheprovider >"$log" 2>&1
suite=$?
grep -E "^(FAILED|ERROR)" "$log" | head -20
$PY scripts/gpu_bench.py "$@"
bench=$?
echo "gpu suite: $(tail -1 "$log")"
[ -n "${OUT:-}" ] && cp "$log" "$OUT/gpu_suite.log"
echo "gpu suite exit: $suite, benchmarks exit: $bench"
exit $(( suite != 0 || bench != 0 ))
