# cuRnet_install's choices, without a GPU: the driver's CUDA version -> the CuPy wheel, and the
# reticulate/Python combination that cannot start.

test_that("the driver's CUDA version is read from nvidia-smi's header and cuDriverGetVersion", {
  header <- c("Tue Nov 24 06:30:00 2026",
              "+-----------------------------------------------------------------------------------------+",
              "| NVIDIA-SMI 580.65.06              Driver Version: 580.65.06      CUDA Version: 13.0     |")
  expect_equal(cuRnet:::nvidia_smi_cuda_version(header), "13.0")
  expect_equal(cuRnet:::nvidia_smi_cuda_version(
    "| NVIDIA-SMI 550.54  Driver Version: 550.54  CUDA Version: 12.4 |"), "12.4")
  expect_true(is.na(cuRnet:::nvidia_smi_cuda_version(c("NVIDIA-SMI has failed because it couldn't communicate", ""))))
  expect_true(is.na(cuRnet:::nvidia_smi_cuda_version(character())))
  expect_equal(cuRnet:::driver_cuda_version(12040L), "12.4")
  expect_equal(cuRnet:::driver_cuda_version(13000L), "13.0")
  expect_equal(cuRnet:::driver_cuda_version(11080L), "11.8")
  for (none in list(0L, NA_integer_, integer())) expect_true(is.na(cuRnet:::driver_cuda_version(none)))
})

test_that("the CuPy wheel follows the driver: 12 -> cupy-cuda12x, 13 and newer -> cupy-cuda13x", {
  pick <- function(v, ...) suppressMessages(cuRnet:::cupy_requirement(v, ...))
  expect_equal(pick("12.0"), "cupy-cuda12x")
  expect_equal(pick("12.8"), "cupy-cuda12x")
  expect_equal(pick("13.0"), "cupy-cuda13x")
  expect_equal(pick("14.1"), "cupy-cuda13x")
  expect_equal(pick("11.8"), "cupy-cuda11x>=13,<14")
  expect_message(cuRnet:::cupy_requirement("12.4"), "supports CUDA 12.4: installing cupy-cuda12x")
  expect_error(pick("10.2"), "CuPy needs CUDA 11 or newer")
  # no driver: gpu = TRUE is an error, gpu = "auto" installs the CPU engine only
  expect_error(pick(NA_character_, required = TRUE), "no NVIDIA driver was found")
  expect_message(none <- cuRnet:::cupy_requirement(NA_character_, required = FALSE), "CPU engine only")
  expect_null(none)
})

test_that("cuda_driver_version() finds no driver where there is none, and agrees with nvidia-smi where there is", {
  v <- cuRnet:::cuda_driver_version()
  smi <- Sys.which("nvidia-smi")
  if (!nzchar(smi) && !file.exists("/dev/nvidiactl")) {
    expect_true(is.na(v))
  } else {
    expect_match(v, "^[0-9]+[.][0-9]+$")
  }
})

test_that("a Python that reticulate cannot start (3.12 with an unfixed config.py) is named first", {
  skip_on_os("windows")
  fake <- function(version) {
    path <- tempfile("python")
    writeLines(c("#!/bin/sh", sprintf("echo %s", version)), path)
    Sys.chmod(path, "755")
    path
  }
  expect_equal(cuRnet:::python_version(fake("3.12")), "3.12")
  expect_true(is.na(cuRnet:::python_version(fake("garbage"))))
  expect_null(cuRnet:::reticulate_cannot_start(fake("3.11")))
  config <- readLines(system.file("config", "config.py", package = "reticulate"))
  problem <- cuRnet:::reticulate_cannot_start(fake("3.12"))
  if (any(grepl("sys.version < '3.4'", config, fixed = TRUE))) {
    expect_match(problem, "cannot start Python 3.12 .*imp.*Python 3.11 environment.*newer reticulate")
    expect_error(cuRnet_install(engine = ".", python = fake("3.13")), "cannot start Python 3.13")
  } else {
    expect_null(problem)   # a reticulate that compares sys.version_info (or a patched one)
  }
})

test_that("a virtual environment's Python version is read from its pyvenv.cfg, without running it", {
  skip_on_os("windows")
  venv <- tempfile("venv")
  dir.create(file.path(venv, "bin"), recursive = TRUE)
  python <- file.path(venv, "bin", "python")
  writeLines(c("#!/bin/sh", "echo 3.11", "touch \"$0.ran\""), python)   # says 3.11 if it is run
  Sys.chmod(python, "755")
  writeLines(c("home = /usr/bin", "version_info = 3.12.1.final.0"), file.path(venv, "pyvenv.cfg"))
  expect_equal(cuRnet:::python_version(python), "3.12")
  expect_false(file.exists(paste0(python, ".ran")))
  writeLines("home = /usr/bin", file.path(venv, "pyvenv.cfg"))        # no version there: it is run
  expect_equal(cuRnet:::python_version(python), "3.11")
  expect_true(file.exists(paste0(python, ".ran")))
})

# cuRnet_install() with a stand-in for python3 that records what it is asked to do
# (no network, no real environment): the bundled engine, and the remembered envdir.
fake_python <- function(dir, log) {
  py <- file.path(dir, "python3")
  writeLines(c(
    "#!/bin/sh",
    sprintf("echo \"$@\" >> '%s'", log),
    # as venv does: bin/python is a link to the Python that made it
    "if [ \"$2\" = venv ]; then mkdir -p \"$3/bin\" && ln -s \"$0\" \"$3/bin/python\"; fi",
    # keep what pip was given to install, for the test to look at
    sprintf(paste0("if [ \"$3\" = install ]; then for a in \"$@\"; do [ -d \"$a\" ] && ",
                   "cp -r \"$a\" '%s/engine'; done; fi"), dir),
    "exit 0"), py)
  Sys.chmod(py, "755")
  py
}

test_that("cuRnet_install() installs the engine shipped in the package and is remembered", {
  skip_on_os("windows")
  tmp <- withr::local_tempdir()
  withr::local_envvar(R_USER_CONFIG_DIR = file.path(tmp, "config"), RETICULATE_PYTHON = "",
                      CURNET_PYTHON = "", CURNET_ENGINE = "")
  withr::local_options(cuRnet.python = NULL)
  log <- file.path(tmp, "log")
  envdir <- file.path(tmp, "my env")
  expect_message(py <- cuRnet_install(envdir = envdir, python = fake_python(tmp, log)),
                 "remembered in")
  expect_equal(py, file.path(envdir, "bin", "python"))
  calls <- readLines(log)
  expect_length(grep("-m venv .*my env", calls), 1)
  install <- grep("pip install numpy", calls, value = TRUE)
  expect_length(install, 1)
  expect_match(install, "curnet-engine-")                  # a copy of inst/python, not a name on PyPI
  # below the versions that need NumPy 2, so the environment can be pinned back to NumPy 1
  expect_match(install, "pyarrow>=14,<26", fixed = TRUE)
  expect_match(install, "pandas>=1.5,<3", fixed = TRUE)
  # the copy pip got is this package's engine, at this package's version
  init <- readLines(file.path(tmp, "engine", "python", "curnet", "_version.py"))
  version <- sub('.*"([^"]+)".*', "\\1", grep("^__version__", init, value = TRUE))
  expect_equal(version, as.character(utils::packageVersion("cuRnet")))
  expect_true(file.exists(file.path(tmp, "engine", "setup.py")))
  # the next session finds the environment with no setting at all
  venv_py <- file.path(normalizePath(envdir), "bin", "python")   # the link, not the Python it points to
  expect_equal(cuRnet_python(), venv_py)
  expect_equal(readLines(file.path(tmp, "config", "R", "cuRnet", "python")), venv_py)
  # what the user sets still wins
  withr::local_envvar(CURNET_PYTHON = fake_python(tmp, log))
  expect_equal(cuRnet_python(), file.path(tmp, "python3"))
})

test_that("the engine's error hint names an install that exists", {
  msg <- cuRnet:::no_engine_message(NULL, "test")
  expect_match(msg, "cuRnet::cuRnet_install()", fixed = TRUE)
  expect_false(grepl("curnet[gpu]", msg, fixed = TRUE))
})

test_that("an engine of another version is named, with the way to the matching one", {
  mine <- as.character(utils::packageVersion("cuRnet"))
  expect_null(cuRnet:::engine_version_mismatch(mine, "/py"))
  expect_match(cuRnet:::engine_version_mismatch("0.1.0", "/py"),
               sprintf("cuRnet %s uses the engine curnet 0.1.0 \\(in /py\\); run cuRnet::cuRnet_install\\(\\)", mine))
  skip_if_no_engine()
  engine <- reticulate::import("curnet")$`__version__`
  expect_equal(engine, mine)          # this checkout's engine and R package agree
})

test_that("cuRnet_install(envdir = NULL) takes a Python as it is: no venv, no pip, remembered", {
  skip_on_os("windows")
  tmp <- withr::local_tempdir()
  withr::local_envvar(R_USER_CONFIG_DIR = file.path(tmp, "config"), RETICULATE_PYTHON = "",
                      CURNET_PYTHON = "")
  withr::local_options(cuRnet.python = NULL)
  log <- file.path(tmp, "log")
  py <- fake_python(tmp, log)
  expect_message(got <- cuRnet_install(envdir = NULL, python = py), "as it is.*remembered in")
  expect_equal(got, py)
  expect_false(any(grepl("venv|pip", readLines(log))))       # only the probe of its packages ran
  expect_equal(cuRnet_python(), py)
  # a Python that lacks the engine's packages is refused, naming them
  bare <- file.path(tmp, "bare-python")
  writeLines(c("#!/bin/sh", "echo scipy pyarrow"), bare)
  Sys.chmod(bare, "755")
  expect_error(cuRnet_install(envdir = NULL, python = bare), "lacks scipy pyarrow")
})

test_that("a Python without the engine loads the one shipped in the package", {
  skip_on_os("windows")
  python <- Sys.getenv("RETICULATE_PYTHON")
  skip_if(!nzchar(python), "needs RETICULATE_PYTHON (a Python with numpy<2, scipy, pyarrow)")
  # a venv that sees that Python's packages (a plain path in a .pth file: the .pth files
  # there, such as an editable curnet's, are not read), so numpy is there and curnet is not
  tmp <- withr::local_tempdir()
  ask <- function(py, code) system2(py, c("-c", shQuote(code)), stdout = TRUE, env = "PYTHONPATH=")
  base <- ask(python, "import sys; print(sys._base_executable)")
  site <- ask(python, "import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))")
  expect_equal(system2(base, c("-m", "venv", "--without-pip", shQuote(file.path(tmp, "env")))), 0)
  bare <- file.path(tmp, "env", "bin", "python")
  env_site <- ask(bare, "import sysconfig; print(sysconfig.get_paths()['purelib'])")
  writeLines(site, file.path(env_site, "numpy-from-elsewhere.pth"))
  expect_equal(ask(bare, paste("import importlib.util as u;",
                               "print(u.find_spec('numpy') is not None, u.find_spec('curnet') is None)")),
               "True True")
  script <- file.path(tmp, "run.R")
  writeLines(c("library(cuRnet)", "stopifnot(cuRnet_available())",
               "cat(reticulate::import('curnet')$`__file__`, '\\n')",
               "print(cuRnet_bfs(cuRnet_graph(data.frame(from = 'a', to = 'b')), 'a'))"), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), shQuote(script), stdout = TRUE, stderr = TRUE,
                 env = c("PYTHONPATH=", paste0("RETICULATE_PYTHON=", bare),
                         paste0("R_LIBS=", paste(.libPaths(), collapse = ":"))))
  expect_match(paste(out, collapse = "\n"),
               file.path(system.file("python", package = "cuRnet"), "python", "curnet"), fixed = TRUE)
  expect_match(out[length(out)], "a +0 +1")
})

# A fresh R session after cuRnet_install() alone (no RETICULATE_PYTHON, no option): its first
# call starts the engine's Python, whichever entry point it is. A data frame's weight-column
# lookup and reticulate's py_to_r once started the first python3 on the PATH instead.
test_that("after only cuRnet_install(), a fresh R session's quick start runs on the engine's Python", {
  skip_on_os("windows")
  python <- Sys.getenv("RETICULATE_PYTHON")
  skip_if(!nzchar(python), "needs RETICULATE_PYTHON (the engine's Python)")
  # the PATH without the engine's bin folder (reticulate puts it first once it has started)
  dirs <- strsplit(Sys.getenv("PATH"), .Platform$path.sep, fixed = TRUE)[[1]]
  withr::local_envvar(PATH = paste(dirs[normalizePath(dirs, mustWork = FALSE) != normalizePath(dirname(python))],
                                   collapse = .Platform$path.sep))
  path_python <- Sys.which("python3")
  skip_if(nzchar(path_python) && system2(path_python, c("-c", shQuote("import curnet")), stdout = FALSE,
                                         stderr = FALSE, env = "PYTHONPATH=") == 0,
          "the python3 on the PATH has the engine too, so a wrong start could not be seen")
  tmp <- withr::local_tempdir()
  withr::local_envvar(R_USER_CONFIG_DIR = file.path(tmp, "config"), RETICULATE_PYTHON = "",
                      CURNET_PYTHON = "")
  withr::local_options(cuRnet.python = NULL)
  expect_message(cuRnet_install(envdir = NULL, python = python), "remembered in")
  fresh_session <- function(lines) {
    script <- file.path(tmp, "run.R")
    writeLines(c("library(cuRnet)", lines, "cat('python:', reticulate::py_config()$python, '\\n')"), script)
    system2("env", c("-u", "RETICULATE_PYTHON", "-u", "CURNET_PYTHON", "PYTHONPATH=",
                     paste0("R_USER_CONFIG_DIR=", shQuote(file.path(tmp, "config"))),
                     paste0("R_LIBS=", shQuote(paste(.libPaths(), collapse = ":"))),
                     shQuote(file.path(R.home("bin"), "Rscript")), shQuote(script)),
            stdout = TRUE, stderr = TRUE)
  }
  engine <- paste0("python: ", normalizePath(dirname(python)), "/", basename(python))
  # docs/install.md's R quick start, verbatim (from library(cuRnet) to the end of its block)
  guide <- file.path(testthat::test_path(), "..", "..", "docs", "install.md")
  if (file.exists(guide)) {
    doc <- readLines(guide)
    from <- which(doc == "library(cuRnet)")[1]
    expect_false(is.na(from))
    to <- from + which(doc[(from + 1):length(doc)] == "```")[1] - 1
    out <- fresh_session(doc[(from + 1):to])
    expect_true(any(grepl("^\\$distances", out)), info = paste(out, collapse = "\n"))
    expect_true(any(startsWith(out, engine)), info = paste(out, collapse = "\n"))
  }
  # the same kind of start, with its result checked: a data frame with a weight column
  out <- fresh_session(c(
    "g <- cuRnet_graph(data.frame(from = c(\"TP53\", \"MDM2\", \"CDKN1A\"), to = c(\"MDM2\", \"CDKN1A\", \"ATM\"),",
    "                             weight = c(0.1, 0.25, 0.4)))",
    "d <- cuRnet_sssp(g, \"TP53\")",
    "cat('distances:', d$distances, '\\n')"))
  expect_true(any(grepl("^distances: 0 0.1 0.35 0.75 *$", out)), info = paste(out, collapse = "\n"))
  expect_true(any(startsWith(out, engine)), info = paste(out, collapse = "\n"))
  # an entry point whose first reticulate call is py_to_r
  out <- fresh_session("cat('engine:', cuRnet_info()$curnet, '\\n')")
  expect_true(any(out == paste("engine:", utils::packageVersion("cuRnet"), "")), info = paste(out, collapse = "\n"))
  expect_true(any(startsWith(out, engine)), info = paste(out, collapse = "\n"))
})

test_that("cuRnet_install runs `curnet warm-up` (the CPU's routes alone without a GPU); a failure is a warning", {
  skip_on_os("windows")
  tmp <- withr::local_tempdir()
  fake <- function(status) {
    py <- file.path(tmp, sprintf("python-%d", status))
    writeLines(c("#!/bin/sh", sprintf("echo \"$@\" >> '%s/args'", tmp),
                 "echo 'curnet warm-up: 12 kernels compiled in 3.0 s' >&2", sprintf("exit %d", status)), py)
    Sys.chmod(py, "755")
    py
  }
  expect_message(cuRnet:::warm_up_kernels(fake(0)), "12 kernels compiled")
  expect_match(readLines(file.path(tmp, "args")), "main\\(\\['warm-up'\\]\\)")
  # a CPU install (gpu = FALSE, or "auto" without a GPU): the CPU's compiled routes only
  unlink(file.path(tmp, "args"))
  expect_message(cuRnet:::warm_up_kernels(fake(0), gpu = FALSE), "CPU routes \\(once")
  expect_match(readLines(file.path(tmp, "args")), "main\\(\\['warm-up', '--backend', 'cpu'\\]\\)")
  expect_warning(suppressMessages(cuRnet:::warm_up_kernels(fake(1))),
                 "not all compiled \\(they will compile at their first use\\)")
})
