#!/usr/bin/env bash
# On a GPU machine: the benchmark rows of the analyses built over the traversals, in one call,
# each checked against its comparator in the same run. Logs and JSON go to $OUT (else a
# temporary folder, printed).
#   betweenness   python -m bench betweenness: PCSF's STRING exact (hops) and weighted against
#                 python-igraph, R-MAT 20 against the number of sources, NetworkX's k sampling
#   coexpression  python -m bench coexpression: 20,000 x 100 network, pickSoftThreshold, TOM;
#                 40,000 genes tiled
#   pcsf, R       with R (the bundle in .device-r, see its README.md) and the PCSF package built
#                 for it in .pcsf-lib: python -m bench pcsf (bench/r_pcsf.R: cuRnet_pcsf beside
#                 PCSF()), and python -m bench r-results (bench/r_results.R: R end-to-end BFS, results
#                 kept and dropped)
# Usage: scripts/gpu-analyses.sh [--no-r] [--nx-k K] [--rand-runs N] [--pcsf-sizes LIST]
# Needs python-igraph (carry its wheel: the device README's .whl route), ../shared/pcsf or
# shared/pcsf for STRING, and scNET in $CURNET_DATA (default .data).
set -uo pipefail
cd "$(dirname "$0")/.."
with_r=1 nx_k=50 rand_runs=20 sizes=20,100,500,1000
while [ $# -gt 0 ]; do
  case "$1" in
    --no-r) with_r=0; shift ;;
    --nx-k) nx_k=$2; shift 2 ;;
    --rand-runs) rand_runs=$2; shift 2 ;;
    --pcsf-sizes) sizes=$2; shift 2 ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
done
PY=$(command -v "${PYTHON:-python3}")
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export CURNET_DATA=${CURNET_DATA:-$PWD/.data}
LOGS=${OUT:-$(mktemp -d)}; mkdir -p "$LOGS"
step() { echo "== $(date -u +%H:%M:%S) $*"; }
status=0
if [ $with_r = 1 ]; then      # R's setup runs on the CPU beside the GPU rows
  SKIP_SMOKE=1 bash .device-r/setup.sh . "$PY" >"$LOGS/r_setup.log" 2>&1 &
  r_setup=$!
fi
# NetworkX finds backends through entry points: the engine installed (editable, offline), or
# where pip cannot build offline (no setuptools), the entry points declared beside the sources
"$PY" -m pip install -q --no-deps --no-build-isolation -e . >"$LOGS/pip.log" 2>&1 || bash scripts/nx-entry-points.sh
step "betweenness"
timeout 330 "$PY" -m bench betweenness --backend cuda --only string,rmat,networkx --rmat-scale 20 \
  --no-rmat-exact --check-sources 8 --sweep 1024,4096,16384 --weighted-sources 1000 --nx-k "$nx_k" \
  --json "$LOGS/betweenness_gpu.json" || status=1
step "coexpression"
timeout 180 "$PY" -m bench coexpression --backend cuda --genes 20000 --large 40000 \
  --json "$LOGS/coexpression_gpu.json" || status=1
if [ $with_r = 1 ]; then
  wait $r_setup && source "${RROOT:-/tmp/rroot}/env.sh" || { tail -5 "$LOGS/r_setup.log"; exit 1; }
  export RETICULATE_PYTHON=$PY
  step "R: results kept and dropped (python -m bench r-results)"
  timeout 120 "$PY" -m bench r-results "" cuda 0.2 20 || status=1
  step "R: cuRnet_pcsf beside PCSF() (python -m bench pcsf)"
  timeout 300 "$PY" -m bench pcsf --backend cuda --pcsf-lib "$PWD/.pcsf-lib" --sizes "$sizes" \
    --rand-runs "$rand_runs" --out "$LOGS/pcsf_gpu.json" || status=1
fi
step "done (exit $status); logs in $LOGS"
exit $status
