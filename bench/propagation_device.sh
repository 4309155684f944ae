#!/bin/sh
# The GPU machine's run behind bench/results/propagation_h200_2026-12-02f*: the gpu-marked
# propagation tests, bench/propagation.py's rows one, null and sets with python-igraph beside
# (its wheels travel in .device-r/whl), and bench/propagation_profile.py's host and null parts
# (where a call's time goes outside the kernel), into $OUT.
#   sh bench/propagation_device.sh   (device call, at most ~140 s; carry [".device-r/whl",
#   ".data/propagation"]: PCSF's STRING TSV)
# The 11:52 run (..._2026-12-02e*) also ran the profile's kernel and sets parts and the rmat row:
#   python3 -m bench.propagation_profile --backend cuda --string $NET --baseline OTHER.cu
#   python3 -m bench.propagation --backend cuda --repeat 3 --rows rmat
set -u
python3 -m pip install -q --no-index --no-deps --target /tmp/site .device-r/whl/*.whl
export PYTHONPATH=python:/tmp/site
NET=.data/propagation/string_pcsf.tsv.gz
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  lscpu | grep -E "^Model name|^CPU\(s\)"
  python3 -c "import cupy, numpy, scipy, igraph; print('CuPy', cupy.__version__, 'NumPy', numpy.__version__, 'SciPy', scipy.__version__, 'igraph', igraph.__version__)"
  date -u; } > "$OUT/machine.txt" 2>&1
timeout 55 python3 -m pytest tests/python/test_propagation*.py -m gpu -q -p no:cacheprovider \
    > "$OUT/gpu_tests.log" 2>&1
tail -n 3 "$OUT/gpu_tests.log"
timeout 45 python3 -m bench.propagation --backend cuda --string $NET --repeat 5 --rows one,null,sets \
    --out "$OUT/propagation.json" > "$OUT/propagation.log" 2>&1
tail -c 600 "$OUT/propagation.log"
timeout 25 python3 -m bench.propagation_profile --backend cuda --string $NET --only host,null \
    --out "$OUT/profile.json" > "$OUT/profile.log" 2>&1
grep -o '"note": "[^"]*"' "$OUT/profile.log"
tail -n 2 "$OUT/profile.log" | cut -c1-300
date -u >> "$OUT/machine.txt"
