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
    sprintf("if [ \"$3\" = install ]; then for a in \"$@\"; do [ -d \"$a\" ] && cp -r \"$a\" '%s/engine'; done; fi", dir),
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
  expect_match(calls[1], "-m venv .*my env")
  install <- grep("pip install numpy", calls, value = TRUE)
  expect_length(install, 1)
  expect_match(install, "curnet-engine-")                  # a copy of inst/python, not a name on PyPI
  # the copy pip got is this package's engine, at this package's version
  init <- readLines(file.path(tmp, "engine", "python", "curnet", "__init__.py"))
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
  expect_equal(ask(bare, "import importlib.util as u; print(u.find_spec('numpy') is not None, u.find_spec('curnet') is None)"),
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
