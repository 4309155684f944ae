#!/usr/bin/env bash
# The first-call rows on a GPU machine (docs/first-call.md, "The GPU rows"), from the
# repository root, in under BUDGET seconds (140 by default); everything goes under $OUT:
#
#   bash bench/first_call_gpu.sh            # the GPU machine, with .device-r (R 4.2.2 + igraph +
#                                           # reticulate) carried; R is set up from it
#   BACKEND=cpu R_SETUP=0 bash bench/first_call_gpu.sh     # the same rows with the CPU engine and
#                                           # the R already here (R_LIBS naming cuRnet's library)
#
# Rows (bench/first_call.py --row, one process each, so one that fails leaves the others):
#  (a) a machine that never ran cuRnet: the first bfs (20,000 vertices) and betweenness (7,729
#      vertices, 24,280 weighted edges) from Python and from R, each with an empty kernel cache,
#      with the kernels each compiled and the seconds spent compiling them; then `curnet warm-up`;
#  (b) a machine used before (the warmed cache): the engine's start table, and fresh processes
#      running library(cuRnet) + the first cuRnet_bfs / cuRnet_betweenness (and Python's), with
#      igraph answering the same questions in the same run.
# The never-ran rows and the warm-up run while R is being set up (R's never-ran rows as soon as
# R is there); the rows of (b) run after all of that, alone.
set -u
BACKEND=${BACKEND:-cuda}
BUDGET=${BUDGET:-140}
R_SETUP=${R_SETUP:-1}
export RROOT=${RROOT:-/tmp/rroot}                 # where .device-r/setup.sh unpacks R
PY=${PY:-$(command -v python3)}
OUT=${OUT:-$(mktemp -d /tmp/first-call-XXXX)}
mkdir -p "$OUT"
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
ROWS=$OUT/first_call_rows.jsonl
LOG=$OUT/first_call.log
CACHES=$(mktemp -d /tmp/curnet-first-call-XXXX)   # kernel caches: outside $OUT (hundreds of files)
WARM=$CACHES/warmed
T0=$SECONDS

say() { echo "[$((SECONDS - T0)) s] $*" | tee -a "$LOG"; }

# row LIMIT ARGS...: one row of bench/first_call.py, cut at LIMIT seconds or at what is left of
# the budget (RESERVE seconds kept back for what must follow); skipped when too little is left.
row() {
  local limit=$1; shift
  local left=$((BUDGET - (SECONDS - T0) - ${RESERVE:-0}))
  ((left < limit)) && limit=$left
  if ((limit < 3)); then say "skipped (budget spent): $*"; return; fi
  say "row: $* (at most $limit s)"
  timeout "$limit" "$PY" bench/first_call.py --backend "$BACKEND" --out "$ROWS" --within $((limit - 2)) "$@" \
    >> "$LOG" 2>&1
  local rc=$?
  ((rc != 0)) && say "row failed (exit $rc$( ((rc == 124)) && echo ': cut at the time limit')): $*"
  return 0
}

say "first-call rows, backend $BACKEND, $(nproc) cores, python $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$LOG"
git log -1 --format='tree at %h (%ci)' 2> /dev/null | tee -a "$LOG"

# The engine's .pyc files, as pip writes them at install: no row pays Python's compiling.
"$PY" -m compileall -q -j 0 python/curnet > /dev/null 2>&1

# R: from the carried bundle (about 40 s), then its never-ran rows, in the background.
(
  if [ "$R_SETUP" = 1 ]; then
    SKIP_SMOKE=1 bash .device-r/setup.sh . "$PY" > "$OUT/r_setup.log" 2>&1 || { say "R setup failed (r_setup.log)"; exit 1; }
    source "$RROOT/env.sh"
  fi
  export RETICULATE_PYTHON=${RETICULATE_PYTHON:-$PY}
  say "R ready: $(Rscript -e 'cat(R.version.string, "cuRnet", as.character(packageVersion("cuRnet")))' 2>&1 | tail -1)"
  RESERVE=45 row 40 --row r-bfs --repeat 1 --empty-cache --cache "$CACHES/never-r-bfs" --count-compiles \
    --label "R bfs, never ran (empty kernel cache)"
  RESERVE=45 row 60 --row r-betweenness --repeat 1 --empty-cache --cache "$CACHES/never-r-betweenness" \
    --count-compiles --label "R betweenness, never ran (empty kernel cache)"
) &
R_LANE=$!

# The warm-up (a machine's kernels compiled once), beside the never-ran rows: separate caches.
RESERVE=45 row 100 --row warm-up --empty-cache --cache "$WARM" --label "curnet warm-up" &
WARM_UP=$!
RESERVE=45 row 30 --row python-bfs --repeat 1 --empty-cache --cache "$CACHES/never-py-bfs" \
  --label "python bfs, never ran (empty kernel cache)"
RESERVE=45 row 60 --row python-betweenness --repeat 1 --empty-cache --cache "$CACHES/never-py-betweenness" \
  --label "python betweenness, never ran (empty kernel cache)"
wait $WARM_UP $R_LANE

# A machine used before: the warmed cache, fresh processes, nothing else running.
[ "$R_SETUP" = 1 ] && [ -f "$RROOT/env.sh" ] && source "$RROOT/env.sh"
export RETICULATE_PYTHON=${RETICULATE_PYTHON:-$PY}
row 15 --row start --cache "$WARM" --label "start (warmed cache)"
# the targets' rows first: what is left of the budget goes to them
row 20 --row r-bfs --repeat 3 --cache "$WARM" --label "R bfs, ran before (warmed cache)"
row 20 --row r-betweenness --repeat 3 --cache "$WARM" --label "R betweenness, ran before (warmed cache)"
row 25 --row igraph-betweenness --repeat 1 --label "R igraph betweenness, same graph"
row 10 --row igraph-bfs --repeat 1 --label "R igraph distances, same graph"
if ((BUDGET - (SECONDS - T0) > 15)); then    # R's first BFS step by step, and bare R's and Python's costs here
  say "R's steps (bench/first_call_steps.R $BACKEND random)"
  CURNET_KERNEL_CACHE=$WARM timeout 15 Rscript bench/first_call_steps.R "$BACKEND" random > "$OUT/first_call_steps.txt" 2>&1
  cat "$OUT/first_call_steps.txt" >> "$LOG"
fi
row 25 --row floors --repeat 1 --label "floors: bare R and Python here"
row 15 --row python-bfs --repeat 2 --cache "$WARM" --label "python bfs, ran before (warmed cache)"
row 15 --row python-betweenness --repeat 2 --cache "$WARM" --label "python betweenness, ran before (warmed cache)"

say "done"
[ -s "$ROWS" ] && "$PY" bench/first_call.py --summarize "$ROWS" | tee "$OUT/first_call_summary.txt"
rm -rf "$CACHES"
exit 0
