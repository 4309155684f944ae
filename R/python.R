# Finding the Python environment that runs the engine, and installing one.

# The R session's state: the engine's modules once imported (bridge(), engine_module()) and
# what the last engine call ran on (last_run, for cuRnet_info(): R/info.R).
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
    "in this package),\nor point RETICULATE_PYTHON (or options(cuRnet.python = ...)) at a Python ",
    "where `import curnet` works, then restart R.")
}

# The engine, started once per session: its R session module (python/curnet/r_bridge/session.py).
bridge <- function() {
  if (!is.null(the$bridge)) return(the$bridge)
  python <- cuRnet_python()
  if (reticulate::py_available(initialize = FALSE)) {
    python <- reticulate::py_config()$python  # reticulate is bound already; use that one
  } else if (is.null(python)) {
    stop(no_engine_message(NULL, "no Python environment is configured."), call. = FALSE)
  } else {
    problem <- reticulate_cannot_start(python)
    if (!is.null(problem)) stop(no_engine_message(python, problem), call. = FALSE)
    # RETICULATE_PYTHON binds reticulate already; use_python() would probe the Python a second
    # time (a subprocess that imports NumPy: 0.2-0.5 s of the first call)
    if (!identical(Sys.getenv("RETICULATE_PYTHON"), python)) reticulate::use_python(python, required = TRUE)
  }
  # NumPy 2 needs no check: the package never asks reticulate to convert arrays (Arrow C data
  # in, results written into R's memory), the one thing reticulate 1.28 cannot do under NumPy 2
  if (!reticulate::py_module_available("curnet")) add_bundled_engine()
  if (!reticulate::py_module_available("curnet.r_bridge.session")) {
    stop(no_engine_message(python, "the module `curnet` (with curnet.r_bridge) is not importable."),
         call. = FALSE)
  }
  the$bridge <- reticulate::import("curnet.r_bridge.session", convert = FALSE)
  mismatch <- engine_version_mismatch(reticulate::import("curnet")$`__version__`, python)
  if (!is.null(mismatch)) warning(mismatch, call. = FALSE)
  the$bridge
}

# Any other module of the engine R reads (`curnet.io`, ...), after bridge() has chosen the
# engine's Python: an import before that would bind reticulate to the first Python on the PATH.
engine_import <- function(module) {
  bridge()
  reticulate::import(module, convert = FALSE)
}

# The engine's Python is named to reticulate as soon as reticulate loads (a preference; nothing
# starts): reticulate's generics (py_to_r) start Python before they evaluate their argument, so
# an entry point whose first reticulate call wraps bridge() in one of them would otherwise start
# the first Python on the PATH, one without the engine. reticulate itself (0.3-0.5 s, with
# Matrix) is loaded by the first call, not by library(cuRnet).
.onLoad <- function(libname, pkgname) {
  if (isNamespaceLoaded("reticulate")) {
    name_engine_python()
  } else {
    setHook(packageEvent("reticulate", "onLoad"), function(...) name_engine_python())
  }
}

name_engine_python <- function() {
  python <- cuRnet_python()
  if (!is.null(python) && !reticulate::py_available(initialize = FALSE)) {
    reticulate::use_python(python, required = FALSE)
  }
}

# A module of the engine's R adapters (python/curnet/r_bridge/NAME.py), imported once per
# session after bridge() has chosen the engine's Python: every analysis added after the first
# ones keeps its R adapter there, one module a domain.
engine_module <- function(name) {
  key <- paste0("r_bridge.", name)
  if (!is.null(the[[key]])) return(the[[key]])
  bridge()
  the[[key]] <- reticulate::import(paste0("curnet.r_bridge.", name), convert = FALSE)
  the[[key]]
}

# Python's "major.minor", or NA if it does not run. A virtual environment's pyvenv.cfg says it
# without starting a Python (a process of 20 ms here, more on a GPU machine's sandbox, at the
# first call).
python_version <- function(python) {
  cfg <- file.path(dirname(dirname(python)), "pyvenv.cfg")
  if (file.exists(cfg)) {
    said <- grep("^version(_info)?[[:space:]]*=", readLines(cfg, warn = FALSE), value = TRUE)
    found <- regmatches(said, regexpr("[0-9]+[.][0-9]+", said))
    if (length(found)) return(found[[1]])
  }
  out <- suppressWarnings(tryCatch(
    system2(python, c("-c", shQuote("import sys; print('%d.%d' % sys.version_info[:2])")),
            stdout = TRUE, stderr = FALSE, env = "LD_LIBRARY_PATH="),
    error = function(e) character()))
  if (length(out) && grepl("^[0-9]+[.][0-9]+$", out[[1]])) out[[1]] else NA_character_
}

# Why reticulate cannot start this Python, or NULL. reticulate before October 2023 compares version
# strings in its config.py ('3.12' < '3.4') and imports `imp`, which Python 3.12 removed, so
# it fails before any of cuRnet's code runs; a patched config.py (the GPU machine's R bundle)
# or a newer reticulate compares sys.version_info instead.
reticulate_cannot_start <- function(python) {
  config <- system.file("config", "config.py", package = "reticulate")
  if (!nzchar(config) || !any(grepl("sys.version < '3.4'", readLines(config, warn = FALSE), fixed = TRUE))) {
    return(NULL)
  }
  version <- python_version(python)
  if (is.na(version) || utils::compareVersion(version, "3.12") < 0) return(NULL)
  sprintf(paste0(
    "reticulate %s cannot start Python %s (its config.py imports `imp`, which Python 3.12 ",
    "removed).\nUse a Python 3.11 environment, e.g. cuRnet_install(python = \"/usr/bin/python3.11\"), ",
    "or a newer reticulate: install.packages(\"reticulate\") (releases after October 2023)."),
    utils::packageVersion("reticulate"), version)
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
#' \code{curnet}), NumPy (1.26 or 2.x: cuRnet passes no array through
#' reticulate's conversion, so reticulate 1.28 works with NumPy 2 too),
#' \code{pyarrow<26} and \code{pandas<3}, the last versions that also run on
#' NumPy 1.26 (so that \code{pip install "numpy<2"} in the environment keeps a
#' working engine); on a GPU machine, \code{gpu = TRUE} adds the CuPy
#' that fits the NVIDIA driver, runs a kernel with it and prints the device
#' and the versions, then compiles every GPU kernel the engine runs, once,
#' into the environment's kernel cache (\command{curnet warm-up}), so that no
#' later call compiles (see \file{docs/first-call.md}). On every machine the
#' warm-up also compiles the CPU backend's Numba routes (where Numba is
#' installed) into Numba's cache.
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
#'   package; it is remembered the same way. Its CPU routes (and, with
#'   \code{gpu} other than \code{FALSE}, its GPU kernels) are compiled once,
#'   as below.
#' @param python The Python (3.11 or newer) that creates the environment.
#' @param gpu \code{TRUE}: also install CuPy, for the CUDA version of the
#'   driver (\command{nvidia-smi}, or libcuda's \code{cuDriverGetVersion}):
#'   \code{cupy-cuda12x} for CUDA 12, \code{cupy-cuda13x} for CUDA 13 or
#'   newer, \code{cupy-cuda11x} (CuPy 13) for CUDA 11; an error without an
#'   NVIDIA driver. \code{"auto"}: the same where a GPU is present, the CPU
#'   engine alone elsewhere. \code{FALSE}: the CPU engine alone.
#' @param editable Install a source tree in editable mode (\code{pip install -e}).
#' @return The path of the environment's Python, invisibly.
#' @export
cuRnet_install <- function(engine = Sys.getenv("CURNET_ENGINE"), envdir = default_venv(),
                           python = Sys.which("python3"), gpu = FALSE, editable = FALSE) {
  if (is.null(envdir)) {
    if (!nzchar(python) || !file.exists(python)) stop("envdir = NULL needs `python =`", call. = FALSE)
    py <- remembered_message(use_existing_python(python), "as it is, with the engine shipped in cuRnet")
    warm_up_kernels(py, engine = system.file("python", "python", package = "cuRnet"), gpu = !isFALSE(gpu))
    return(invisible(py))
  }
  if (!nzchar(engine)) {
    engine <- bundled_engine()
    on.exit(unlink(engine, recursive = TRUE), add = TRUE)
    editable <- FALSE
  }
  if (!nzchar(python) || !file.exists(python)) {
    stop("no python3 found: install Python 3.11 or newer, or pass `python =`", call. = FALSE)
  }
  problem <- reticulate_cannot_start(python)
  if (!is.null(problem)) stop(problem, call. = FALSE)
  cupy <- if (!isFALSE(gpu)) cupy_requirement(cuda_driver_version(python), required = isTRUE(gpu))
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
  # pyarrow 26 and pandas 3.1 need NumPy 2: pinned below them, the environment can go back to NumPy 1
  pins <- c("numpy>=1.26", "pyarrow>=14,<26", "pandas>=1.5,<3", cupy)
  run(py, c("-m", "pip", "install", "--upgrade", "pip"))
  run(py, c("-m", "pip", "install", pins, engine_arg))
  if (!is.null(cupy)) check_cupy(py)
  warm_up_kernels(py, gpu = !is.null(cupy))
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

# The CUDA version the NVIDIA driver supports ("12.4"), from nvidia-smi or, without it,
# libcuda's cuDriverGetVersion (through `python`'s ctypes); NA without a driver.
cuda_driver_version <- function(python = Sys.which("python3")) {
  smi <- Sys.which("nvidia-smi")
  if (nzchar(smi)) {
    out <- suppressWarnings(tryCatch(system2(smi, stdout = TRUE, stderr = FALSE), error = function(e) ""))
    v <- nvidia_smi_cuda_version(out)
    if (!is.na(v)) return(v)
  }
  if (!nzchar(python)) return(NA_character_)
  code <- paste("import ctypes", "v = ctypes.c_int(0)",
                "ok = ctypes.CDLL('libcuda.so.1').cuDriverGetVersion(ctypes.byref(v)) == 0",
                "print(v.value if ok else 0)", sep = "; ")
  out <- suppressWarnings(tryCatch(system2(python, c("-c", shQuote(code)), stdout = TRUE, stderr = FALSE,
                                           env = "LD_LIBRARY_PATH="), error = function(e) ""))
  driver_cuda_version(suppressWarnings(as.integer(out[1])))
}

# "CUDA Version: 12.4" in nvidia-smi's header, or NA.
nvidia_smi_cuda_version <- function(lines) {
  hit <- regmatches(lines, regexpr("CUDA Version: *[0-9]+[.][0-9]+", lines))
  if (length(hit)) sub("CUDA Version: *", "", hit[[1]]) else NA_character_
}

# cuDriverGetVersion's number (12040) as "12.4"; NA for none.
driver_cuda_version <- function(code) {
  if (length(code) != 1 || is.na(code) || code <= 0) return(NA_character_)
  sprintf("%d.%d", code %/% 1000L, (code %% 1000L) %/% 10L)
}

# The CuPy wheel for a driver's CUDA version: NULL (with a message) where there is no GPU
# and `required` is FALSE (gpu = "auto"); an error where one was required.
cupy_requirement <- function(cuda, required = TRUE) {
  if (is.na(cuda)) {
    if (required) {
      stop("gpu = TRUE, but no NVIDIA driver was found (neither nvidia-smi nor libcuda.so.1): ",
           "install the driver, or use gpu = \"auto\" or FALSE for the CPU engine", call. = FALSE)
    }
    message("No NVIDIA GPU found: installing the CPU engine only (no CuPy)")
    return(NULL)
  }
  major <- as.integer(sub("[.].*", "", cuda))
  if (major < 11) {
    stop(sprintf("the NVIDIA driver supports CUDA %s; CuPy needs CUDA 11 or newer: update the driver", cuda),
         call. = FALSE)
  }
  package <- if (major >= 13) "cupy-cuda13x" else if (major == 12) "cupy-cuda12x" else "cupy-cuda11x>=13,<14"
  message(sprintf("The NVIDIA driver supports CUDA %s: installing %s", cuda, package))
  package
}

# `curnet warm-up` in the new environment: the CPU backend's compiled routes (Numba, where
# installed) into Numba's cache and, with `gpu`, every GPU kernel into the engine's kernel cache
# (inside the environment), now rather than at the user's first calls (docs/first-call.md). A
# failure is a warning: those routes then compile at first use. `engine`: where the engine's
# sources are when `py` has none (the copy shipped in the package).
warm_up_kernels <- function(py, engine = "", gpu = TRUE) {
  message(if (gpu) "Compiling cuRnet's GPU kernels and CPU routes (once; about a minute)"
          else "Compiling cuRnet's CPU routes (once, where Numba is installed)")
  warm_up <- sprintf("import sys; from curnet.cli import main; sys.exit(main(%s))",
                     if (gpu) "['warm-up']" else "['warm-up', '--backend', 'cpu']")
  env <- c("LD_LIBRARY_PATH=", if (nzchar(engine)) paste0("PYTHONPATH=", shQuote(engine)))
  out <- suppressWarnings(system2(py, c("-c", shQuote(warm_up)), stdout = TRUE, stderr = TRUE,
                                  env = env))
  status <- attr(out, "status")
  if (!is.null(status) && status != 0) {
    warning("the kernels were not all compiled (they will compile at their first use):\n",
            paste(utils::tail(out, 5), collapse = "\n"), call. = FALSE)
  } else {
    for (line in grep("^curnet warm-up:", out, value = TRUE)) message(line)
  }
  invisible(out)
}

# Runs a kernel with the new CuPy and prints the device and the versions; an error if it fails.
check_cupy <- function(py) {
  code <- paste(
    "import cupy, numpy",
    "x = cupy.arange(1000, dtype=cupy.int64)",
    "assert int((x * x).sum()) == 332833500, 'wrong kernel result'",
    "p = cupy.cuda.runtime.getDeviceProperties(0)",
    "v = lambda n: '%d.%d' % (n // 1000, n % 1000 // 10)",
    paste0("print('GPU check passed on %s (%d GPU(s)): CuPy %s, NumPy %s, CUDA driver %s, runtime %s' % (",
           "p['name'].decode(), cupy.cuda.runtime.getDeviceCount(), cupy.__version__, numpy.__version__, ",
           "v(cupy.cuda.runtime.driverGetVersion()), v(cupy.cuda.runtime.runtimeGetVersion())))"),
    sep = "; ")
  out <- suppressWarnings(system2(py, c("-c", shQuote(code)), stdout = TRUE, stderr = TRUE,
                                  env = "LD_LIBRARY_PATH="))
  status <- attr(out, "status")
  if (!is.null(status) && status != 0) {
    stop("CuPy was installed but a kernel did not run:\n", paste(utils::tail(out, 5), collapse = "\n"),
         call. = FALSE)
  }
  message(paste(out, collapse = "\n"))
  invisible(out)
}
