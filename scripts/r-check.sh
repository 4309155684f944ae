#!/usr/bin/env bash
# The R package's checks: testthat against the installed package, then R CMD build and
# R CMD check --no-manual, which must end with no errors, no warnings and no notes.
# Usage: scripts/r-check.sh   (after scripts/r-setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
export RETICULATE_PYTHON="${RETICULATE_PYTHON:-$PWD/.venv/bin/python}"
export _R_CHECK_FORCE_SUGGESTS_=false   # R's arrow (suggested) is not in Debian
export LANG="${LANG:-C.UTF-8}"

R CMD INSTALL --no-test-load . >/dev/null
echo "== testthat"
Rscript -e 'res <- as.data.frame(testthat::test_dir("tests/testthat", package = "cuRnet", load_package = "installed", reporter = "summary", stop_on_failure = TRUE)); cat(sprintf("testthat: %d passed, %d failed, %d skipped, %d errors\n", sum(res$passed), sum(res$failed), sum(res$skipped), sum(res$error)))'

echo "== R CMD build / check"
work="${CURNET_CHECK_DIR:-$(mktemp -d)}"   # kept: $work/check.log, $work/cuRnet.Rcheck
mkdir -p "$work"
root="$PWD"
(cd "$work" && R CMD build "$root" >build.log 2>&1) || { cat "$work/build.log"; exit 1; }
tarball="$(ls "$work"/cuRnet_*.tar.gz)"
# cuRnet_install() installs the engine from the tarball's inst/python (links to setup.py and python/)
# (the listing first: with pipefail, `tar | grep -q` fails when grep stops reading early)
listing=$(tar tzf "$tarball")
grep -q '^cuRnet/inst/python/python/curnet/__init__.py$' <<<"$listing" ||
  { echo "R CMD build: the tarball carries no engine sources (inst/python)"; exit 1; }
(cd "$work" && R CMD check --no-manual "$tarball" >check.log 2>&1) || true
status_line="$(grep -E '^Status:' "$work/check.log" || echo 'Status: check did not finish')"
if ! grep -qE '^Status: OK$' "$work/check.log"; then
  grep -E "WARNING|ERROR|NOTE" -A8 "$work/check.log"
  for f in "$work"/cuRnet.Rcheck/00install.out "$work"/cuRnet.Rcheck/tests/testthat.Rout.fail; do
    [ -f "$f" ] && { echo "== $f"; tail -50 "$f"; }
  done
  echo "R CMD check: $status_line"
  exit 1
fi
echo "R CMD check: $status_line"
