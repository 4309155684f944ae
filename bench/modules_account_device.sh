#!/usr/bin/env bash
# The GPU machine's run behind bench/results/*_h200_2026-12-02e*: cuRnet_hclust's 20,000-gene
# call from R and from Python step by step, cuRnet_blockwiseModules from R against the number
# of genes (40,000 in one block first, with its GPU memory), the clustering alone against the
# number of genes, and a first cuRnet_betweenness in fresh R processes on a machine that ran
# cuRnet before. Into $OUT; each piece under its own limit, skipped when the time is spent.
#   bash bench/modules_account_device.sh [SECONDS]     (in the device call; the R bundle carried:
#   .device-r/debs, setup.sh, SHA256SUMS, prebuilt, rlib-extra)
set -u -o pipefail
BUDGET=${1:-225}
T0=$SECONDS
left() { echo $(( BUDGET - (SECONDS - T0) )); }
say() { echo "[$(( SECONDS - T0 )) s] $*"; }
PY=$(command -v python3)
export PYTHONPATH=$PWD/python:$PWD
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  lscpu | grep -E "^Model name|^CPU\(s\)"
  $PY -c "import cupy, numpy, scipy; print('CuPy', cupy.__version__, 'NumPy', numpy.__version__, 'SciPy', scipy.__version__)"
  git log --oneline -1 2>/dev/null; date -u; } > "$OUT/machine.txt" 2>&1

# A machine that ran cuRnet before: betweenness's kernels compiled into a cache of their own by
# a first weighted betweenness from Python (itself the "never ran" row), beside R's setup.
KC=/tmp/curnet-kernels-betweenness
timeout 75 $PY -m bench first-call --row python-betweenness --backend cuda --cache $KC --empty-cache \
  --label "python betweenness, never ran (empty kernel cache; beside R's setup)" \
  --out "$OUT/first_call_rows.jsonl" > "$OUT/first_call_python_never.log" 2>&1 &
never=$!
SKIP_SMOKE=1 bash .device-r/setup.sh . "$PY" > "$OUT/rsetup.log" 2>&1 || { say "R setup failed"; tail -20 "$OUT/rsetup.log"; }
source /tmp/rroot/env.sh && cp -a .device-r/rlib-extra/* /tmp/rlib/
export RETICULATE_PYTHON=$PY PYTHONPATH=$PWD/python:$PWD
say "R set up"
wait $never; say "betweenness's kernels compiled (rc $?)"

# 1. cuRnet_hclust on 20,000 genes from R, step by step
timeout $(( $(left) < 60 ? $(left) : 60 )) Rscript bench/r_hclust_split.R "$OUT/hclust_split_r.json" 20000 2 \
  > "$OUT/hclust_split_r.log" 2>&1; say "R's hclust split (rc $?)"; cat "$OUT/hclust_split_r.log"

# 2. curnet.hclust from Python, step by step at 20,000, and the clustering against genes
limit=$(( $(left) - 110 ))
if [ $limit -gt 10 ]; then
  timeout $(( limit < 42 ? limit : 42 )) $PY -m bench.hclust_split --genes 20000 5000 10000 40000 --backend cuda \
    --out "$OUT/hclust_split_python.json" > "$OUT/hclust_split_python.log" 2>&1; say "Python's hclust (rc $?)"
  cut -c1-400 "$OUT/hclust_split_python.log"
fi

# 3. cuRnet_blockwiseModules from R: 40,000 genes in one block first, then the series; the
# device's used memory sampled beside it
nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader -lms 250 > "$OUT/gpu_memory_samples.csv" 2>&1 &
sampler=$!
within=$(( $(left) - 45 ))
if [ $within -gt 20 ]; then
  timeout $(( within + 15 )) Rscript bench/r_modules_series.R "$OUT/modules_series_r.json" $within 40000 20000 5000 10000 30000 \
    > "$OUT/modules_series_r.log" 2>&1; say "R's modules series (rc $?)"; cat "$OUT/modules_series_r.log"
fi
kill $sampler 2>/dev/null

# 4. a first cuRnet_betweenness in fresh R processes, the kernels cached (ran before)
limit=$(( $(left) - 14 ))
if [ $limit -gt 8 ]; then
  timeout $limit $PY -m bench first-call --row r-betweenness --backend cuda --cache $KC --repeat 3 \
    --within $(( limit - 2 )) --label "R betweenness, ran before" --out "$OUT/first_call_rows.jsonl" \
    > "$OUT/first_call_r.log" 2>&1; say "R's first betweenness (rc $?)"
fi
for i in 1 2; do
  [ $(left) -gt 7 ] || break
  CURNET_KERNEL_CACHE=$KC CUPY_CACHE_DIR=$KC timeout $(( $(left) - 1 )) \
    bash -c 'TIMEFORMAT="the whole Rscript: wall %R s, cpu %U+%S s"; time Rscript bench/first_call_steps.R cuda ppi' \
    > "$OUT/first_call_r_steps_$i.log" 2>&1; say "R's first betweenness step by step $i (rc $?)"
done
$PY -m bench first-call --summarize "$OUT/first_call_rows.jsonl" 2>&1 | cut -c1-600
cat "$OUT"/first_call_r_steps_*.log 2>/dev/null
say "done"
