#!/usr/bin/env bash
# Issue 48's GPU account in one run on the device machine: the Leiden/Louvain GPU tests, then
# PCSF's STRING (from an .npz in the checkout: bench/communities.py --save-npz) and R-MAT 20
# and 22 (drawn on the device), each with Leiden's and Louvain's per-phase account. Writes
# under $OUT, each step's results kept as it ends (a step past its time limit leaves the
# graphs before it).
#   OUT=/tmp/out bash bench/communities_device.sh [STRING_NPZ] [RMAT_GRAPHS] [BACKEND]
# A CPU check of the script: bash bench/communities_device.sh .leiden-data/string_pcsf.npz rmat10,rmat12 cpu
set -u
OUT=${OUT:-/tmp/communities_device}
STRING_NPZ=${1:-.leiden-data/string_pcsf.npz}
RMAT=${2:-rmat20,rmat22}
BACKEND=${3:-cuda}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
export PYTHONPATH=python
start=$SECONDS
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "no GPU"
  $PY -c "import numpy, sys; print('python', sys.version.split()[0], 'numpy', numpy.__version__)"
  $PY -c "import cupy; print('cupy', cupy.__version__)" 2>/dev/null; } > "$OUT/machine.txt"
timeout 65 $PY -m pytest tests/python/test_leiden_gpu.py tests/python/test_leiden_nx.py -m gpu -q \
    -p no:cacheprovider > "$OUT/gpu_tests.log" 2>&1
echo "gpu tests rc=$? at $((SECONDS - start)) s" | tee -a "$OUT/steps.txt"
timeout 30 $PY -m bench communities --graphs "string_pcsf=$STRING_NPZ" --backends "$BACKEND" \
    --calls leiden_2,louvain --repeats 5 --phases --phase-calls leiden,louvain \
    --out "$OUT/string.json" > "$OUT/string.log" 2>&1
echo "string rc=$? at $((SECONDS - start)) s" | tee -a "$OUT/steps.txt"
timeout $((190 - (SECONDS - start))) $PY -m bench communities --graphs "$RMAT" --backends "$BACKEND" \
    --calls leiden_2,louvain --repeats 1 --phases --phase-calls leiden,louvain \
    --out "$OUT/rmat.json" > "$OUT/rmat.log" 2>&1
echo "rmat rc=$? at $((SECONDS - start)) s" | tee -a "$OUT/steps.txt"
