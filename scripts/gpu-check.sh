#!/usr/bin/env bash
# On a GPU machine: the gpu pytest suite, then the GPU benchmarks; a short table is printed last.
# Usage: scripts/gpu-check.sh [extra gpu_bench.py args]   (run from anywhere; PYTHON overrides python3)
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
export PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH}
$PY -m pytest tests/python/test_gpu.py -m gpu -q -p no:cacheprovider 2>&1 | tail -15
suite=${PIPESTATUS[0]}
$PY scripts/gpu_bench.py "$@"
bench=$?
echo "gpu suite exit: $suite, benchmarks exit: $bench"
exit $(( suite != 0 || bench != 0 ))
