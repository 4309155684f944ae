#!/bin/sh
# The GPU machine's run behind bench/results/modules_h200_*: the gpu-marked clustering and
# module tests, then bench/modules.py's two stages, into $OUT. fastcluster and dynamicTreeCut
# are not installed there: their wheels travel in .device-r/whl (carried, git-ignored).
#   sh bench/modules_device.sh        (in the device call, with carry [".device-r/whl"])
set -u
python3 -m pip install -q --no-index --no-deps --target /tmp/site .device-r/whl/fastcluster-*.whl \
    .device-r/whl/dynamictreecut-*.whl
export PYTHONPATH=python:/tmp/site
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  lscpu | grep -E "^Model name|^CPU\(s\)"
  python3 -c "import cupy, numpy, scipy, fastcluster; print('CuPy', cupy.__version__, 'NumPy', numpy.__version__, 'SciPy', scipy.__version__, 'fastcluster', fastcluster.__version__)"
  date -u; } > "$OUT/machine.txt" 2>&1
timeout 75 python3 -m pytest tests/python/test_hclust_gpu.py tests/python/test_modules_gpu.py -m gpu -q \
    -p no:cacheprovider > "$OUT/gpu_tests.log" 2>&1
tail -n 5 "$OUT/gpu_tests.log"
# the largest sizes first within each stage: a stage stopped by its limit keeps what it ran
timeout 65 python3 -m bench.modules --stage hclust --genes 20000 40000 5000 10000 --backend cuda \
    --out "$OUT/hclust.json"
timeout 80 python3 -m bench.modules --stage modules --genes 20000 40000 5000 10000 --backend cuda \
    --out "$OUT/modules.json"
