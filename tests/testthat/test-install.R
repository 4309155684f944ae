# cuRnet_install's choices, without a GPU: the driver's CUDA version -> the CuPy wheel, and the
# reticulate/Python combination that cannot start.

test_that("the driver's CUDA version is read from nvidia-smi's header and cuDriverGetVersion", {
  header <- c("Tue Nov 24 06:30:00 2026",
              "+-----------------------------------------------------------------------------------------+",
              "| NVIDIA-SMI 580.65.06              Driver Version: 580.65.06      CUDA Version: 13.0     |")
  expect_equal(cuRnet:::nvidia_smi_cuda_version(header), "13.0")
  expect_equal(cuRnet:::nvidia_smi_cuda_version("| NVIDIA-SMI 550.54  Driver Version: 550.54  CUDA Version: 12.4 |"), "12.4")
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
