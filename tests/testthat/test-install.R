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
