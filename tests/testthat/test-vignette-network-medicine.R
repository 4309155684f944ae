# The network-medicine vignette's data path: scNET's gene symbols reach R through reticulate.
# Its chunks run in a fresh R process over a small stand-in scNET cache, with the engine's
# Python and, when CURNET_NUMPY2_PYTHON names one, a Python with NumPy 2 (which reticulate 1.28
# cannot convert arrays of: a NumPy array of symbols came through as one string, every gene
# set empty).

vignette_code <- function(file, labels) {
  lines <- readLines(file)
  starts <- grep("^```\\{r ", lines)
  code <- character()
  for (label in labels) {
    first <- starts[grepl(sprintf("^```\\{r %s[,}]", label), lines[starts])]
    stopifnot(length(first) == 1)
    last <- first + which(lines[(first + 1):length(lines)] == "```")[1]
    code <- c(code, lines[(first + 1):(last - 1)])
  }
  code
}

# A connected stand-in for scNET: vertices named by NCBI gene ids, symbols alongside ("" for
# some, as in scNET), holding the vignette's module and drug-target genes.
write_scnet_cache <- function(dir) {
  symbols <- c("APP", "PSEN1", "PSEN2", "APOE", "MAPT", "TREM2", "SORL1", "BIN1", "CLU", "ACHE",
               "BCHE", "CHRNA4", "CHRNA7", "GRIN1", "GRIN2A", "GRIN2B", "", "TP53", "EGFR", "")
  n <- length(symbols)
  ids <- as.character(1000 + seq_len(n))
  src <- c(seq_len(n) - 1L, 0L, 3L)
  dst <- c(seq_len(n) %% n, 9L, 13L)
  # the engine's Python reads its own copy of the environment
  environ <- reticulate::import("os", convert = FALSE)$environ
  before <- reticulate::py_to_r(environ$get("CURNET_DATA"))
  reticulate::py_set_item(environ, "CURNET_DATA", dir)
  on.exit(if (is.null(before)) environ$pop("CURNET_DATA") else reticulate::py_set_item(environ, "CURNET_DATA", before))
  cache <- reticulate::import("curnet.datasets.cache")
  np <- reticulate::import("numpy", convert = FALSE)
  cache$`_save`("scnet", NULL, NULL, np$linspace(0.5, 0.9, length(src)), names = as.list(ids),
                src = np$array(as.list(src)), dst = np$array(as.list(dst)), symbols = as.list(symbols))
  stats::setNames(symbols, ids)
}

run_vignette_sets <- function(python, dir, code, engine_dir) {
  script <- tempfile(fileext = ".R")
  writeLines(c(code, "cat('RESULT', use_scnet, length(module), lengths(sets[c(1, 2)]), symbol[['1001']], '\\n')"),
             script)
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), shQuote(script), stdout = TRUE, stderr = TRUE,
                                  env = c(sprintf("CURNET_DATA=%s", dir), sprintf("RETICULATE_PYTHON=%s", python),
                                          sprintf("PYTHONPATH=%s", engine_dir),
                                          sprintf("R_LIBS=%s", paste(.libPaths(), collapse = ":")))))
  result <- grep("^RESULT", out, value = TRUE)
  if (!length(result)) stop("the vignette's chunks failed:\n", paste(utils::tail(out, 15), collapse = "\n"))
  strsplit(result, " ")[[1]][-1]
}

test_that("the network-medicine vignette finds its gene sets on scNET (NumPy 1 and 2)", {
  skip_if_no_engine()
  skip_if_not_installed("knitr")  # the vignette's setup chunk sets knitr's options
  file <- test_path("..", "..", "vignettes", "network-medicine.Rmd")
  skip_if_not(file.exists(file), "the vignette's source is not here")
  dir <- withr::local_tempdir()
  write_scnet_cache(dir)
  code <- vignette_code(file, c("setup", "network", "sets"))
  engine_dir <- dirname(dirname(reticulate::import("curnet")$`__file__`))
  pythons <- c(engine = reticulate::py_config()$python, numpy2 = Sys.getenv("CURNET_NUMPY2_PYTHON"))
  for (python in pythons[nzchar(pythons)]) {
    got <- run_vignette_sets(python, dir, code, engine_dir)
    # scNET was used; the module has its 9 genes; cholinesterase 4 and NMDA 3 targets; APP named
    expect_equal(got, c("TRUE", "9", "4", "3", "APP"), info = python)
  }
})
