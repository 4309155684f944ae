#!/bin/sh
# The GPU machine's run behind bench/results/propagation_h200_2026-12-02e*: the gpu-marked
# propagation tests, bench/propagation.py with python-igraph beside (its wheels travel in
# .device-r/whl), and bench/propagation_profile.py (where the time goes), into $OUT.
#   sh bench/propagation_device.sh   (device call; carry [".device-r/whl", ".data/propagation"]:
#   PCSF's STRING TSV, and walk_loop_*.cu, the kernel before this tree's, timed beside)
set -u
python3 -m pip install -q --no-index --no-deps --target /tmp/site .device-r/whl/*.whl
export PYTHONPATH=python:/tmp/site
NET=.data/propagation/string_pcsf.tsv.gz
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  lscpu | grep -E "^Model name|^CPU\(s\)"
  python3 -c "import cupy, numpy, scipy, igraph; print('CuPy', cupy.__version__, 'NumPy', numpy.__version__, 'SciPy', scipy.__version__, 'igraph', igraph.__version__)"
  date -u; } > "$OUT/machine.txt" 2>&1
timeout 60 python3 -m pytest tests/python/test_propagation*.py -m gpu -q -p no:cacheprovider \
    > "$OUT/gpu_tests.log" 2>&1
tail -n 3 "$OUT/gpu_tests.log"
timeout 45 python3 -m bench.propagation --backend cuda --string $NET --repeat 5 --rows one,null,sets \
    --out "$OUT/propagation.json" > "$OUT/propagation.log" 2>&1
tail -c 600 "$OUT/propagation.log"
timeout 55 python3 -m bench.propagation_profile --backend cuda --string $NET \
    --baseline "$(ls .data/propagation/walk_loop_*.cu | head -n 1)" --out "$OUT/profile.json" \
    > "$OUT/profile.log" 2>&1
grep -o '"note": "[^"]*"' "$OUT/profile.log"
tail -n 3 "$OUT/profile.log"
timeout 30 python3 -m bench.propagation --backend cuda --repeat 3 --rows rmat --out "$OUT/rmat.json" \
    > "$OUT/rmat.log" 2>&1
tail -c 300 "$OUT/rmat.log"
