# The README's two commands: `make demo` (the main job on a real network) and `make test`.
# Each sets up what it needs and is quick when nothing has changed.
SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.curnet-installed
R_STAMP := $(VENV)/.cuRnet-R-installed
export RETICULATE_PYTHON := $(abspath $(PY))
export PYTHONPATH := $(abspath python)

.PHONY: demo test setup setup-r test-python test-r test-r-numpy2 bench bench-smoke gpu-check clean typecheck \
	lint lint-python lint-r docs docs-ci version

demo: setup $(R_STAMP)
	$(PY) -m curnet.cli demo
	@echo; echo "== the same job from R (scripts/demo.R)"
	Rscript scripts/demo.R

test: setup-r lint test-python test-numpy2 test-r test-r-numpy2 docs-ci

# Debian's R packages first: rpy2 (in requirements-dev.txt) compiles against R's headers.
setup-r:
	bash scripts/r-setup.sh --system-only

setup: $(STAMP)
$(STAMP): setup.py pyproject.toml requirements-dev.txt
	@command -v R >/dev/null || bash scripts/r-setup.sh --system-only
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $@

# test_r_api.py embeds R in the Python process (rpy2) from its collection on: it runs in a
# process of its own, so that R and reticulate 1.28 do not live through the other tests.
test-python: setup
	$(PY) -m pytest -q --ignore=tests/python/test_r_api.py
	$(PY) -m pytest -q tests/python/test_r_api.py

# The linters: ruff (pyproject.toml), mypy over the whole python/curnet package (setup.cfg;
# the backend contract, backends/contract.py, among it) and lintr over the R package (.lintr).
lint: lint-python typecheck lint-r

lint-python: setup
	$(PY) -m ruff check python bench tests/python scripts

typecheck: setup
	$(PY) -m mypy

lint-r: $(R_STAMP)
	Rscript scripts/lint.R

# The documentation site, offline, into site/: docs/ with mkdocs (the Python API from its
# docstrings, the CLI reference from its parser), then pkgdown's R site into site/r (reference
# pages with their examples run, the vignettes as articles, NEWS.md); then every internal
# link and every exported R function's reference page is checked. About 16 minutes on 2
# shared cores, most of it the vignettes' computations.
DOCS_RUN ?= TRUE
docs: setup $(R_STAMP)
	rm -rf site
	$(PY) scripts/docs.py generate
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --quiet
	$(DOCS_R_ENV) Rscript -e 'options(pkgdown.internet = FALSE); pkgdown::build_site(".", override = list(destination = "site/r"), examples = $(DOCS_RUN), preview = FALSE, new_process = FALSE, install = FALSE, devel = FALSE)'
	# the performance article shows bench/results' plots from beside it; CONTRIBUTING.md is
	# the site's contributing.html (pkgdown's copy would keep the repository's links)
	mkdir -p site/r/bench/results && cp bench/results/*.png site/r/bench/results/
	rm -f site/r/CONTRIBUTING.html
	$(PY) scripts/docs.py check site

# CI's docs build (`make test`): the same site and checks, with the R examples' and
# vignettes' code shown but not run (the engine hidden from R): about 3 minutes on 2 cores
# shared with other jobs (pkgdown 166 s, mkdocs 10 s), where `make docs` took 16.
docs-ci:
	$(MAKE) docs DOCS_RUN=FALSE DOCS_R_ENV="RETICULATE_PYTHON=/usr/bin/python3 CURNET_PYTHON="

# One version for R and Python: DESCRIPTION's Version, copied into python/curnet/_version.py
# (pyproject.toml reads it there). `make version V=2.1.0` sets a new one first.
version:
	@if [ -n "$(V)" ]; then sed -i 's/^Version: .*/Version: $(V)/' DESCRIPTION; fi
	@v=$$(sed -n 's/^Version: *//p' DESCRIPTION); \
	  sed -i "s/^__version__ = \"[^\"]*\"/__version__ = \"$$v\"/" python/curnet/_version.py; \
	  echo "version $$v: DESCRIPTION and python/curnet/_version.py"

# The engine must also run on NumPy 2 (the R-facing .venv is pinned below 2 for reticulate).
VENV2 := .venv-numpy2
$(VENV2)/.curnet-installed: setup.py pyproject.toml requirements-dev.txt
	test -x $(VENV2)/bin/python || python3 -m venv $(VENV2)
	$(VENV2)/bin/python -m pip install -q "numpy>=2" $$(grep -vE '^(#|numpy|pyarrow|rpy2)' requirements-dev.txt) pyarrow
	touch $@

test-numpy2: $(VENV2)/.curnet-installed
	$(VENV2)/bin/python -c 'import numpy; assert numpy.__version__ >= "2", numpy.__version__'
	$(VENV2)/bin/python -m pytest -q -p no:cacheprovider --ignore=tests/python/test_r_api.py

# The R package, reinstalled when its sources change.
$(R_STAMP): $(STAMP) DESCRIPTION NAMESPACE $(wildcard R/*.R src/*.c src/*.h)
	bash scripts/r-setup.sh
	touch $@

test-r: $(R_STAMP)
	bash scripts/r-check.sh

# The R package's tests on NumPy 2 (cuRnet asks reticulate to convert no array)
test-r-numpy2: $(VENV2)/.curnet-installed $(R_STAMP)
	RETICULATE_PYTHON=$(abspath $(VENV2)/bin/python) Rscript -e 'res <- as.data.frame(testthat::test_dir("tests/testthat", package = "cuRnet", load_package = "installed", reporter = "summary", stop_on_failure = TRUE)); cat(sprintf("testthat on NumPy 2: %d passed, %d failed, %d skipped\n", sum(res$$passed), sum(res$$failed), sum(res$$skipped)))'

bench: setup
	$(PY) -m bench

bench-smoke: setup
	$(PY) -m bench --smoke

# On a GPU machine: the gpu-marked tests and the GPU benchmarks, a short table last.
gpu-check:
	bash scripts/gpu-check.sh

clean:
	rm -rf $(VENV) $(VENV2) build *.egg-info .pytest_cache .hypothesis site .ruff_cache
