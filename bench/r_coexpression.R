# WGCNA's side of `python -m bench coexpression`. Usage:
#   Rscript bench/r_coexpression.R DIR [THREADS] [notom]
# Reads DIR/expr.bin + DIR/expr.dim (doubles, samples x genes, column-major), times WGCNA 1.72's
# correlation network (|r| >= 0.8), pickSoftThreshold over powers 1..20 and
# TOMsimilarityFromExpr (its defaults), and writes DIR/wgcna.json with the times and what the
# Python side compares: the edge count and sum of |r|, the fit table, TOM rows 1..20 and the
# TOM's total. `export-all DIR` writes ALL's 12,625 x 128 expression instead.
args <- commandArgs(trailingOnly = TRUE)
if (args[1] == "export-all") {
  data("ALL", package = "ALL")
  x <- t(Biobase::exprs(ALL))
  dir <- args[2]
  writeBin(as.double(x), file.path(dir, "expr.bin"))
  writeLines(as.character(dim(x)), file.path(dir, "expr.dim"))
  writeLines(colnames(x), file.path(dir, "genes.txt"))
  quit(status = 0)
}
suppressMessages(library(WGCNA))
dir <- args[1]
threads <- if (length(args) > 1) as.integer(args[2]) else 2L
if (threads > 1) enableWGCNAThreads(threads) else disableWGCNAThreads()
d <- scan(file.path(dir, "expr.dim"), quiet = TRUE)
x <- matrix(readBin(file.path(dir, "expr.bin"), "double", prod(d)), d[1], d[2])
timed <- function(expr) {
  invisible(gc())
  t <- system.time(value <- expr)[["elapsed"]]
  list(value = value, seconds = t)
}
out <- list(threads = threads, wgcna = as.character(packageVersion("WGCNA")), blas = sessionInfo()$BLAS)
r <- timed({
  cc <- WGCNA::cor(x, use = "p")
  keep <- abs(cc) >= 0.8 & upper.tri(cc)
  list(edges = sum(keep), abs_sum = sum(abs(cc[keep])))
})
invisible(gc())
out$cor_graph <- c(r$value, seconds = r$seconds)
r <- timed(suppressWarnings({
  utils::capture.output(f <- pickSoftThreshold(x, powerVector = 1:20, verbose = 0))
  f
}))
out$pick_soft_threshold <- list(seconds = r$seconds, fit = as.list(r$value$fitIndices))
if (!identical(args[3], "notom")) {
  r <- timed(TOMsimilarityFromExpr(x, verbose = 0))
  out$tom <- list(seconds = r$seconds, rows = as.vector(r$value[1:20, ]), total = sum(r$value))
}
writeLines(jsonlite::toJSON(out, digits = NA, auto_unbox = TRUE), file.path(dir, "wgcna.json"))
