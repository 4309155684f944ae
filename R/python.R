# Finding the Python environment that runs the engine, and installing one.

the <- new.env(parent = emptyenv())

default_venv <- function() file.path(tools::R_user_dir("cuRnet", "data"), "venv")

venv_python <- function(venv) {
  file.path(venv, if (.Platform$OS.type == "windows") "Scripts/python.exe" else "bin/python")
}

#' The Python interpreter cuRnet uses
#'
#' Looked up in this order: the \env{RETICULATE_PYTHON} environment variable;
#' the option \code{cuRnet.python}; the \env{CURNET_PYTHON} environment
#' variable; the environment the last \code{\link{cuRnet_install}} made
#' (remembered in the file \code{tools::R_user_dir("cuRnet", "config")/python});
#' the default environment \code{tools::R_user_dir("cuRnet", "data")/venv}.
#'
#' @return The path of the Python executable, or \code{NULL} if none is set or installed.
#' @seealso \code{\link{cuRnet_install}}, \code{\link{cuRnet_available}}
#' @export
cuRnet_python <- function() {
  candidates <- c(Sys.getenv("RETICULATE_PYTHON"), getOption("cuRnet.python", ""),
                  Sys.getenv("CURNET_PYTHON"), remembered_python(), venv_python(default_venv()))
  candidates <- candidates[nzchar(candidates)]
  found <- candidates[file.exists(candidates)]
  if (length(found)) found[[1]] else NULL
}

# Where cuRnet_install() writes the Python it made, for the sessions that follow.
remembered_python_file <- function() file.path(tools::R_user_dir("cuRnet", "config"), "python")

remembered_python <- function() {
  f <- remembered_python_file()
  if (file.exists(f)) trimws(readLines(f, n = 1, warn = FALSE)) else ""
}

remember_python <- function(py) {
  f <- remembered_python_file()
  dir.create(dirname(f), recursive = TRUE, showWarnings = FALSE)
  # an absolute path, but not resolved: a venv's bin/python is a link to the system Python
  py <- file.path(normalizePath(dirname(py)), basename(py))
  ok <- tryCatch({ writeLines(py, f); TRUE }, error = function(e) FALSE, warning = function(w) FALSE)
  if (ok) f else NULL
}

# The engine's Python sources shipped inside this R package (inst/python), in a
# writable copy: pip builds a source tree in place.
bundled_engine <- function() {
  shipped <- system.file("python", package = "cuRnet")
  if (!nzchar(shipped) || !file.exists(file.path(shipped, "setup.py"))) {
    stop("this installation of cuRnet carries no engine sources (inst/python); give ",
         "cuRnet_install(engine = \"/path/to/cuRnet\") (a source checkout) or set CURNET_ENGINE",
         call. = FALSE)
  }
  copy <- tempfile("curnet-engine-")
  dir.create(copy)
  file.copy(list.files(shipped, full.names = TRUE), copy, recursive = TRUE)
  copy
}

# The engine and this R package ship together; another engine version is a warning.
engine_version_mismatch <- function(engine, python) {
  mine <- as.character(utils::packageVersion("cuRnet"))
  if (identical(engine, mine)) return(NULL)
  sprintf(paste0("cuRnet %s uses the engine curnet %s (in %s); run cuRnet::cuRnet_install() ",
                 "for the engine of this version"), mine, engine, python)
}

# A Python without the engine (one cuRnet_install(envdir = NULL) picked, say) imports
# the copy shipped in this package: the engine of the very version of the R code.
add_bundled_engine <- function() {
  shipped <- system.file("python", "python", package = "cuRnet")
  if (nzchar(shipped)) reticulate::import("sys", convert = FALSE)$path$insert(0L, shipped)
}

# cuRnet_install(envdir = NULL): a Python as it is, which must have the engine's packages.
use_existing_python <- function(python) {
  needed <- c("numpy", "scipy", "pyarrow")
  probe <- sprintf("import importlib.util as u; print(' '.join(m for m in %s if u.find_spec(m) is None))",
                   paste0("[", paste0("'", needed, "'", collapse = ", "), "]"))
  missing <- suppressWarnings(system2(python, c("-c", shQuote(probe)), stdout = TRUE, stderr = TRUE,
                                      env = "LD_LIBRARY_PATH="))
  status <- attr(missing, "status")
  if (!is.null(status) && status != 0) {
    stop(sprintf("`%s` did not run: %s", python, paste(missing, collapse = "\n")), call. = FALSE)
  }
  missing <- trimws(paste(missing, collapse = " "))
  if (nzchar(missing)) {
    stop(sprintf("%s lacks %s, which the engine needs: install them there, or let cuRnet_install() ",
                 python, missing), "make an environment (leave out envdir = NULL)", call. = FALSE)
  }
  python
}

no_engine_message <- function(python, why) {
  paste0(
    "cuRnet cannot use its Python engine: ", why, "\n",
    if (!is.null(python)) paste0("  Python: ", python, "\n"),
    "Install it with cuRnet::cuRnet_install() (a fresh environment with the engine shipped ",
    "in this package and numpy<2, which reticulate ", utils::packageVersion("reticulate"),
    " needs),\nor point RETICULATE_PYTHON (or options(cuRnet.python = ...)) at a Python ",
    "where `import curnet` works, then restart R.")
}

# The engine's R bridge (python/curnet/bridge.py), imported once per session.
bridge <- function() {
  if (!is.null(the$bridge)) return(the$bridge)
  python <- cuRnet_python()
  if (reticulate::py_available(initialize = FALSE)) {
    python <- reticulate::py_config()$python  # reticulate is bound already; use that one
  } else if (is.null(python)) {
    stop(no_engine_message(NULL, "no Python environment is configured."), call. = FALSE)
  } else {
    reticulate::use_python(python, required = TRUE)
  }
  numpy_ok <- tryCatch(
    utils::compareVersion(reticulate::py_eval("__import__('numpy').__version__"), "2") < 0,
    error = function(e) FALSE)
  if (!numpy_ok) {
    stop(no_engine_message(python, paste0("NumPy is missing or 2.x there; reticulate ",
                                          utils::packageVersion("reticulate"), " needs numpy<2.")),
         call. = FALSE)
  }
  if (!reticulate::py_module_available("curnet")) add_bundled_engine()
  if (!reticulate::py_module_available("curnet.bridge")) {
    stop(no_engine_message(python, "the module `curnet` (with curnet.bridge) is not importable."),
         call. = FALSE)
  }
  the$bridge <- reticulate::import("curnet.bridge", convert = FALSE)
  mismatch <- engine_version_mismatch(reticulate::import("curnet")$`__version__`, python)
  if (!is.null(mismatch)) warning(mismatch, call. = FALSE)
  the$bridge
}

#' Is the Python engine usable?
#'
#' @return \code{TRUE} if cuRnet's Python engine can be loaded in this session.
#' @export
cuRnet_available <- function() {
  tryCatch(!is.null(bridge()), error = function(e) FALSE)
}

#' Create the Python environment cuRnet uses
#'
#' Makes a virtual environment with the engine (the Python package
#' \code{curnet}) and the versions that work with the installed reticulate:
#' \code{numpy<2} (reticulate 1.28 cannot read NumPy 2 arrays) and
#' \code{pyarrow<26}; on a GPU machine, \code{gpu = TRUE} adds CuPy.
#' The environment is found automatically afterwards (see \code{\link{cuRnet_python}}).
#'
#' @param engine Where pip finds the engine: by default (empty, and no
#'   \env{CURNET_ENGINE} environment variable) the engine's sources shipped in
#'   this package, the very version of the R code; else a cuRnet source tree
#'   (the folder with \file{setup.py}), a wheel, or a pip requirement.
#' @param envdir The environment's folder. Remembered: later R sessions use
#'   it without further settings (see \code{\link{cuRnet_python}}).
#'   \code{NULL}: no new environment and no downloads (for a machine without
#'   a package index): \code{python} is used as it is, must have NumPy, SciPy
#'   and pyarrow (and CuPy for the GPU), and loads the engine shipped in this
#'   package; it is remembered the same way.
#' @param python The Python (3.11 or newer) that creates the environment.
#' @param gpu Also install CuPy for CUDA 12 (\code{cupy-cuda12x<14}).
#' @param editable Install a source tree in editable mode (\code{pip install -e}).
#' @return The path of the environment's Python, invisibly.
#' @export
cuRnet_install <- function(engine = Sys.getenv("CURNET_ENGINE"), envdir = default_venv(),
                           python = Sys.which("python3"), gpu = FALSE, editable = FALSE) {
  if (is.null(envdir)) {
    if (!nzchar(python) || !file.exists(python)) stop("envdir = NULL needs `python =`", call. = FALSE)
    return(invisible(remembered_message(use_existing_python(python), "as it is, with the engine shipped in cuRnet")))
  }
  if (!nzchar(engine)) {
    engine <- bundled_engine()
    on.exit(unlink(engine, recursive = TRUE), add = TRUE)
    editable <- FALSE
  }
  if (!nzchar(python) || !file.exists(python)) {
    stop("no python3 found: install Python 3.11 or newer, or pass `python =`", call. = FALSE)
  }
  # a Python started from R may pick up R's LD_LIBRARY_PATH and the wrong libpython
  run <- function(cmd, args) {
    status <- system2(cmd, shQuote(args), env = "LD_LIBRARY_PATH=")
    if (status != 0) stop(sprintf("`%s %s` failed (status %d)", cmd, paste(args, collapse = " "), status),
                          call. = FALSE)
  }
  if (!file.exists(venv_python(envdir))) {
    dir.create(dirname(envdir), recursive = TRUE, showWarnings = FALSE)
    message("Creating the Python environment ", envdir)
    run(python, c("-m", "venv", envdir))
  }
  py <- venv_python(envdir)
  engine_arg <- if (editable && dir.exists(engine)) c("-e", engine) else engine
  pins <- c("numpy>=1.26,<2", "pyarrow>=14,<26", if (gpu) "cupy-cuda12x>=13,<14")
  run(py, c("-m", "pip", "install", "--upgrade", "pip"))
  run(py, c("-m", "pip", "install", pins, engine_arg))
  invisible(remembered_message(py, "installed"))
}

# Remembers `py` for later sessions and says so (or which option to set instead).
remembered_message <- function(py, how) {
  remembered <- remember_python(py)
  message("cuRnet uses ", py, " (", how, ") from the next R session on",
          if (!is.null(remembered)) paste0(" (remembered in ", remembered, ")")
          else paste0("; this R cannot write its settings, so set options(cuRnet.python = \"", py,
                      "\") (e.g. in ~/.Rprofile) or the environment variable CURNET_PYTHON"),
          if (nzchar(Sys.getenv("RETICULATE_PYTHON"))) " (unset RETICULATE_PYTHON, which takes precedence)", ".")
  py
}
