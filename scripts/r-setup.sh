#!/usr/bin/env bash
# Installs what the R package cuRnet needs from Debian (if missing) and the package itself.
# Idempotent. Usage: scripts/r-setup.sh [--system-only]   (root for apt-get, or sudo)
#   --system-only: only the Debian packages (R, its packages, r-base-dev for rpy2)
set -euo pipefail
cd "$(dirname "$0")/.."
system_only=false
[ "${1:-}" = "--system-only" ] && system_only=true

# WGCNA and Bioconductor's ALL: the co-expression comparator and the vignette's data; Biobase and
# SummarizedExperiment: the expression objects the co-expression functions read; BH and Rcpp
# build the PCSF package (the Steiner-forest comparator) below
packages=(r-base-core r-base-dev r-cran-igraph r-cran-reticulate r-cran-testthat r-cran-knitr
          r-cran-rmarkdown r-cran-roxygen2 r-cran-progress r-cran-cli r-bioc-stringdb pandoc
          r-cran-wgcna r-bioc-all r-bioc-biobase r-bioc-summarizedexperiment r-cran-bh r-cran-rcpp r-cran-fastcluster r-cran-dynamictreecut
          r-cran-pkgdown r-cran-lintr)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "r-setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
[ "${1:-}" = "--system-only" ] && exit 0   # the Makefile installs Debian's packages before rpy2

$system_only && exit 0

# The Python side: the engine in the project's venv (numpy<2 for Debian's reticulate 1.28) and rpy2.
PY="${RETICULATE_PYTHON:-$PWD/.venv/bin/python}"
if [ -x "$PY" ]; then
  "$PY" -c "import curnet.r_bridge.session" 2>/dev/null || "$PY" -m pip install -q -e .
  "$PY" -c "import rpy2.robjects" 2>/dev/null || "$PY" -m pip install -q "rpy2-rinterface<3.6.6" rpy2
else
  echo "r-setup: no Python at $PY; create .venv (make setup) or set RETICULATE_PYTHON" >&2
fi

R CMD INSTALL --no-test-load . >/dev/null
echo "r-setup: cuRnet $(Rscript -e 'cat(as.character(packageVersion("cuRnet")))') installed"

# The PCSF package, the comparator of cuRnet_pcsf (not on CRAN or Debian), where its tarball is
# at hand: the PCSF tests and `python -m bench pcsf` (bench/r_pcsf.R) skip or stop without it.
pcsf_tarball="${CURNET_PCSF_TARBALL:-../shared/pcsf/PCSF_0.99.1.tar.gz}"
if [ -f "$pcsf_tarball" ] && ! Rscript -e 'quit(status = !requireNamespace("PCSF", quietly = TRUE))' 2>/dev/null; then
  R CMD INSTALL "$pcsf_tarball" >/dev/null 2>&1 && echo "r-setup: PCSF installed (the comparator)" \
    || echo "r-setup: PCSF did not install from $pcsf_tarball; its tests will skip" >&2
fi
