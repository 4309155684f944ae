# Runs igraph's own test files with the names cuRnet answers bound to cuRnet's drop-ins
# (cuRnet_igraph_functions()), each call counted, in a process of its own so that igraph's
# tests and cuRnet's own do not share state. test-igraph-own-tests.R starts it and checks what
# it writes. Arguments: igraph's testthat folder, the RDS file to write.
suppressMessages({
  library(testthat)
  library(igraph)
  library(cuRnet)
})
args <- commandArgs(trailingOnly = TRUE)
dir <- args[[1]]
bindings <- cuRnet_igraph_functions()
counts <- new.env()
counted <- function(name, f) {
  force(name)
  force(f)
  function(...) {
    assign(name, get0(name, envir = counts, inherits = FALSE, ifnotfound = 0L) + 1L, envir = counts)
    f(...)
  }
}
# the files that call a bound name
escaped <- gsub(".", "\\.", names(bindings), fixed = TRUE)
pattern <- sprintf("(^|[^._[:alnum:]])(%s)\\(", paste(escaped, collapse = "|"))
files <- Filter(function(f) any(grepl(pattern, readLines(f, warn = FALSE))),
                list.files(dir, pattern = "^test.*\\.R$", full.names = TRUE))
rows <- list()
calls <- integer(0)
for (path in files) {
  env <- new.env(parent = globalenv())
  sys.source(file.path(dir, "helper.R"), envir = env)
  for (name in names(bindings)) assign(name, counted(name, bindings[[name]]), envir = env)
  before <- sum(unlist(as.list(counts)))
  results <- testthat::test_file(path, env = env, reporter = "silent")
  calls[[basename(path)]] <- sum(unlist(as.list(counts))) - before
  for (test in results) {
    for (r in test$results) {
      line <- if (!is.null(r$srcref)) as.integer(r$srcref[1]) else NA_integer_
      rows[[length(rows) + 1]] <- data.frame(
        file = basename(path), test = test$test, line = line,
        passed = inherits(r, "expectation_success"), skipped = inherits(r, "expectation_skip"),
        message = conditionMessage(r), stringsAsFactors = FALSE)
    }
  }
}
saveRDS(list(results = do.call(rbind, rows), calls_by_file = calls, calls = as.list(counts),
             igraph = as.character(utils::packageVersion("igraph"))), args[[2]])
