#!/usr/bin/env bash
# On a GPU machine: the gpu pytest suite, then the GPU benchmarks or R; a short table is printed last.
# Usage: scripts/gpu-check.sh [--compare REF] [--no-bench] [--with-r] [extra `python -m bench gpu-check` args]
#   --compare REF  also run the GPU check of REF (a checkout of an earlier commit, e.g. made by
#                  `git archive COMMIT python bench scripts | tar -x -C REF`; a tree from before
#                  bench/gpu_check.py runs its scripts/gpu_bench.py) with the same arguments, and
#                  print the engine rows side by side (python -m bench gpu-compare): one machine, one call.
#   --no-bench     the suite only.
#   --no-suite     leave out the pytest suite (when a run just before made it).
#   --suite-timeout S  stop the pytest suite after S seconds (a device call has a time limit;
#                  a cold machine compiles every kernel inside the suite); its log keeps what ran.
#   --pack         at exit, every log and JSON in one archive, $OUT/gpu_check_outputs.tar.gz
#                  (a device call brings back at most 8 files).
#   --with-r       after the gpu pytest suite, R instead of the GPU check: R from the bundle in
#                  .device-r (carried with the checkout; see its README.md), cuRnet_install() alone
#                  then a fresh R session that must run BFS on the GPU, the testthat suite with
#                  the GPU tests enabled, the R layer of the benchmark suite on scNET (python -m bench
#                  --gpu --only scnet; CURNET_DATA, default .data, holds the network) and scripts/demo.R.
# PYTHON overrides python3. Logs and JSON go to $OUT when set (else a temporary folder, printed).
set -uo pipefail
cd "$(dirname "$0")/.."
compare="" bench_on=1 suite_on=1 WITH_R=0 suite_timeout=0 pack=0
while [ $# -gt 0 ]; do
  case "$1" in
    --compare) compare=$2; shift 2 ;;
    --no-bench) bench_on=0; shift ;;
    --no-suite) suite_on=0; shift ;;
    --suite-timeout) suite_timeout=$2; shift 2 ;;
    --pack) pack=1; shift ;;
    --with-r) WITH_R=1; shift ;;
    *) break ;;
  esac
done
PY=$(command -v "${PYTHON:-python3}") || { echo "no ${PYTHON:-python3}"; exit 2; }
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
export LOGS=${OUT:-$(mktemp -d)}
mkdir -p "$LOGS"
if [ $pack = 1 ]; then
  pack_outputs() {
    local archive
    archive=$(mktemp --suffix=.tar.gz)
    tar -czf "$archive" -C "$LOGS" . && find "$LOGS" -mindepth 1 -delete && mv "$archive" "$LOGS/gpu_check_outputs.tar.gz"
    echo "outputs packed: $LOGS/gpu_check_outputs.tar.gz"
  }
  trap pack_outputs EXIT
fi
log=$LOGS/gpu_suite.log
# every test module that holds gpu-marked tests (the others need nothing of a GPU)
gpu_tests=$(grep -l "mark.gpu" tests/python/test_*.py)
suite=0
if [ $suite_on = 1 ]; then
  limit=()
  [ "$suite_timeout" -gt 0 ] && limit=(timeout "$suite_timeout")
  "${limit[@]}" $PY -m pytest $gpu_tests -m gpu -q -p no:cacheprovider >"$log" 2>&1
  suite=$?
  [ $suite = 124 ] && echo "(the suite stopped at its limit, --suite-timeout $suite_timeout)" | tee -a "$log"
else
  echo "not run (--no-suite)" >"$log"
fi
grep -E "^(FAILED|ERROR)" "$log" | head -20

if [ $WITH_R = 0 ]; then
  bench=0
  if [ $bench_on = 1 ]; then
    $PY -m bench gpu-check --json "$LOGS/gpu_check.json" "$@"
    bench=$?
    if [ -n "$compare" ]; then
      echo "== the same benchmarks at $compare"
      if [ -f "$compare/bench/gpu_check.py" ]; then ref_check=(-m bench gpu-check); else ref_check=(scripts/gpu_bench.py); fi
      (cd "$compare" && PYTHONPATH=$PWD/python $PY "${ref_check[@]}" --json "$LOGS/gpu_check_ref.json" "$@" \
         >"$LOGS/gpu_check_ref.log" 2>&1) || echo "reference benchmarks failed: see gpu_check_ref.log"
      echo "== engine rows: $compare (before) against this tree (after)"
      $PY -m bench gpu-compare "$LOGS/gpu_check_ref.json" "$LOGS/gpu_check.json"
    fi
  fi
  echo "gpu suite: $(tail -1 "$log")"
  echo "gpu suite exit: $suite, benchmarks exit: $bench"
  exit $(( suite != 0 || bench != 0 ))
fi

# -- R -------------------------------------------------------------------------------------------
step() { echo "== $(date -u +%H:%M:%S) $*"; }
[ -f .device-r/setup.sh ] || { echo "--with-r: no .device-r/setup.sh (carry the R bundle, see .device-r/README.md)"; exit 2; }
step "R from .device-r (setup.sh, log: $LOGS/r_setup.log)"
SKIP_SMOKE=1 bash .device-r/setup.sh . "$PY" >"$LOGS/r_setup.log" 2>&1
setup=$?
tail -3 "$LOGS/r_setup.log"
# shellcheck disable=SC1091
[ $setup = 0 ] && source "${RROOT:-/tmp/rroot}/env.sh"
export RETICULATE_PYTHON=$PY CURNET_DATA=${CURNET_DATA:-$PWD/.data}
rtests=1 rbench=1 demo=1 rinstall=1
if [ $setup = 0 ]; then
  step "cuRnet_install() alone, then a fresh R session on the GPU (log: $LOGS/r_install.log)"
  (
    unset RETICULATE_PYTHON PYTHONPATH CURNET_PYTHON
    R_USER_CONFIG_DIR=$(mktemp -d) HOME=$(mktemp -d)
    export R_USER_CONFIG_DIR HOME
    timeout 60 Rscript -e "cuRnet::cuRnet_install(envdir = NULL, python = '$PY')" &&
    timeout 120 Rscript -e '
      library(cuRnet)
      ig <- igraph::sample_gnm(20000, 200000, directed = TRUE)
      d <- cuRnet_bfs(cuRnet_graph(ig), 1:200)
      i <- cuRnet_info()
      cat("python:", cuRnet_python(), "| backend:", i$backend, "| last run:", format(i$last_run), "
")
      stopifnot(i$backend == "cuda",
                isTRUE(all.equal(unname(d), unname(igraph::distances(ig, 1:200, mode = "out", weights = NA)))))
      cat("R install check: a fresh session ran BFS on the GPU, equal to igraph
")'
  ) >"$LOGS/r_install.log" 2>&1
  rinstall=$?
  grep -E "^R install check|^python:" "$LOGS/r_install.log" || tail -8 "$LOGS/r_install.log"

  step "testthat suite, GPU tests enabled (log: $LOGS/r_tests.log)"
  timeout 300 Rscript -e '
    res <- as.data.frame(testthat::test_dir("tests/testthat", package = "cuRnet", load_package = "installed",
                                            reporter = "summary", stop_on_failure = FALSE))
    gpu <- grepl("^GPU:", res$test)
    s <- list(expectations_passed = sum(res$passed), failed = sum(res$failed), errors = sum(res$error),
              tests = nrow(res), skipped = sum(res$skipped), gpu_tests = sum(gpu),
              gpu_tests_run = sum(gpu & !res$skipped), backend = cuRnet::cuRnet_info()$auto_backend,
              failures = as.list(paste(res$file, res$test, sep = ": ")[res$failed > 0 | res$error]))
    cat(sprintf("R tests: %d tests, %d expectations passed, %d failed, %d errors, %d skipped; GPU tests run: %d of %d (auto backend: %s)\n",
                s$tests, s$expectations_passed, s$failed, s$errors, s$skipped, s$gpu_tests_run, s$gpu_tests, s$backend))
    writeLines(jsonlite::toJSON(s, auto_unbox = TRUE), file.path(Sys.getenv("LOGS"), "r_tests.json"))
    quit(status = as.integer(s$failed + s$errors > 0))' >"$LOGS/r_tests.log" 2>&1
  rtests=$?
  grep -E "^R tests:" "$LOGS/r_tests.log" || tail -20 "$LOGS/r_tests.log"

  step "R layer of the benchmarks on scNET (log: $LOGS/r_bench.log; JSON: $LOGS/bench/gpu.json)"
  mkdir -p "$LOGS/bench"
  # merged into a copy of the committed results, so the file can replace bench/results/gpu.json
  [ -f bench/results/gpu.json ] && cp bench/results/gpu.json "$LOGS/bench/gpu.json"
  timeout 300 $PY -m bench --gpu --only scnet --data-dir "$CURNET_DATA" --out "$LOGS/bench" >"$LOGS/r_bench.log" 2>&1
  rbench=$?
  tail -4 "$LOGS/r_bench.log"

  step "scripts/demo.R (log: $LOGS/demo.log)"
  timeout 180 Rscript scripts/demo.R >"$LOGS/demo.log" 2>&1
  demo=$?
  tail -8 "$LOGS/demo.log"
fi

step "summary"
echo "gpu suite: $(tail -1 "$log")"
grep -hE "^R tests:" "$LOGS/r_tests.log" 2>/dev/null
grep -hE "^R install check" "$LOGS/r_install.log" 2>/dev/null
if [ -f "$LOGS/bench/gpu.json" ]; then
  $PY - "$LOGS/bench/gpu.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc["records"] if r.get("case") == "scnet" and r.get("layer") == "R end-to-end"
        and r.get("variant")]
print(f"{'R end to end, scNET':<24} {'sources':>13} {'median':>9} {'min':>9} {'engine':>9} {'dev->host':>9} {'R':>9}  backend")
ms = lambda s: f"{1e3 * s:.1f} ms" if s is not None else "-"
for r in rows:
    sp = r.get("split") or {}
    print(f"{r['variant']:<24} {r['sources'] + ' (' + format(r['k'], ',') + ')':>13} {ms(r['median_s']):>9} "
          f"{ms(r.get('min_s')):>9} {ms(sp.get('engine_s')):>9} {ms(sp.get('device_to_host_s')):>9} "
          f"{ms(sp.get('r_s')):>9}  {r.get('device') or r.get('backend')}")
EOF
fi
echo "exit codes: gpu suite $suite, R setup $setup, R install $rinstall, R tests $rtests, R bench $rbench, demo $demo; logs in $LOGS"
exit $(( suite != 0 || setup != 0 || rinstall != 0 || rtests != 0 || rbench != 0 || demo != 0 ))
