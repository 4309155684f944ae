#!/usr/bin/env bash
# The CPU's first-call rows of bench/first_call.py in interleaved rounds, each row a run of its
# own labelled with the load average it started at (the 2-core machine is shared), and bare
# R's floors beside them in the same rounds (`Rscript -e 1`, `Rscript -e 'library(Matrix)'`):
#   R_LIBS=/tmp/rlib bash bench/first_call_cpu_rounds.sh ROUNDS OUT.jsonl
# Rows (a fresh process each): R's library(cuRnet) + cuRnet_graph + first cuRnet_bfs on a
# 2,000-vertex ring; the same step by step (bench/first_call_steps.R); Python's first bfs;
# igraph's answer; the floors of bench/first_call.py (R alone, Matrix, reticulate, reticulate's
# Python start, its probe, Python with NumPy). Read with
#   python -m bench first-call --summarize OUT.jsonl
# Results: docs/first-call.md.
set -euo pipefail
rounds=${1:-5}
out=${2:-first_call_cpu_rounds.jsonl}
py=${PYTHON:-python}
load() { cut -d' ' -f1-3 /proc/loadavg; }
bare() {   # one fresh Rscript: its wall and CPU seconds as a JSON line, labelled with the load
  local label=$1; shift
  local at; at=$(load)
  "$py" - "$label" "$at" "$@" >> "$out" <<'EOF'
import json, sys, time
sys.path.insert(0, ".")
from bench.first_call import fresh
label, at, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
wall, cpu, _ = fresh(cmd)
print(json.dumps({"row": f"{label} (load {at})", "backend": "cpu", "cache": None,
                  "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                  label: {"wall_median": wall, "cpu_median": cpu, "runs": [{"wall": wall, "cpu": cpu}]}}))
EOF
}
for round in $(seq "$rounds"); do
  for row in r-bfs r-steps python-bfs igraph-bfs floors; do
    "$py" -m bench first-call --row "$row" --backend cpu --repeat 1 --out "$out" \
      --label "$row, round $round (load $(load))" > /dev/null
  done
  bare "Rscript -e 1" Rscript -e 1
  bare "Rscript -e 'library(Matrix)'" Rscript -e "library(Matrix)"
done
"$py" -m bench first-call --row start --backend cpu --out "$out" --label "start (load $(load))" > /dev/null
