# WGCNA's answers for tests/python/test_coexpression.py. Usage:
#   Rscript wgcna_oracle.R DIR
# DIR holds inputs NAME.bin (doubles, samples x genes, column-major) with NAME.dim (2 integers);
# each answer is written as RESULT.bin / RESULT.dim into DIR. ALL's first probes are written
# as the input "all" when Bioconductor's ALL is installed.
suppressMessages(library(WGCNA))
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
read_input <- function(name) {
  d <- scan(file.path(dir, paste0(name, ".dim")), quiet = TRUE)
  matrix(readBin(file.path(dir, paste0(name, ".bin")), "double", prod(d)), d[1], d[2])
}
put <- function(name, x) {
  x <- as.matrix(x)
  writeBin(as.double(x), file.path(dir, paste0(name, ".bin")))
  writeLines(as.character(dim(x)), file.path(dir, paste0(name, ".dim")))
}
quiet <- function(expr) { utils::capture.output(value <- suppressWarnings(expr)); value }

if (requireNamespace("ALL", quietly = TRUE) && requireNamespace("Biobase", quietly = TRUE)) {
  data("ALL", package = "ALL", envir = environment())
  put("all", t(Biobase::exprs(ALL)[1:300, ]))
}
inputs <- sub("[.]dim$", "", list.files(dir, "[.]dim$"))
for (name in inputs) {
  d <- read_input(name)
  put(paste0(name, "-cor-pearson"), quiet(WGCNA::cor(d, use = "p")))
  put(paste0(name, "-cor-spearman"), quiet(stats::cor(d, use = "p", method = "spearman")))
  put(paste0(name, "-cor-bicor"), quiet(bicor(d, use = "p")))
  put(paste0(name, "-cor-bicor-maxp"), quiet(bicor(d, use = "p", maxPOutliers = 0.05)))
  if (any(apply(d, 2, function(x) isTRUE(sd(x, na.rm = TRUE) == 0)))) next
  for (type in c("unsigned", "signed", "signed hybrid")) {
    put(paste0(name, "-adj-", type), adjacency(d, type = type, power = 6))
    fit <- quiet(pickSoftThreshold(d, networkType = type, verbose = 0))
    put(paste0(name, "-pst-", type), as.matrix(fit$fitIndices))
    put(paste0(name, "-pst-", type, "-estimate"), if (is.na(fit$powerEstimate)) NaN else fit$powerEstimate)
  }
  put(paste0(name, "-pst-bicor-more"),
      as.matrix(quiet(pickSoftThreshold(d, corFnc = bicor, corOptions = list(use = "p"),
                                        moreNetworkConcepts = TRUE, removeFirst = TRUE, verbose = 0))$fitIndices))
  put(paste0(name, "-softc"), quiet(softConnectivity(d, verbose = 0)))
  put(paste0(name, "-softc-signed"), quiet(softConnectivity(d, type = "signed", verbose = 0)))
  a <- adjacency(d, power = 6)
  put(paste0(name, "-tom-unsigned"), TOMsimilarity(a, verbose = 0))
  put(paste0(name, "-tom-unsigned-mean"), TOMsimilarity(a, TOMDenom = "mean", verbose = 0))
  signed_adj <- sign(WGCNA::cor(d, use = "p")) * a
  put(paste0(name, "-tom-signed"), TOMsimilarity(signed_adj, TOMType = "signed", verbose = 0))
  colors <- rep(c(1, 2, 3), length.out = ncol(d))
  put(paste0(name, "-intra"), as.matrix(intramodularConnectivity(a, colors)))
  put(paste0(name, "-pfisher"), corPvalueFisher(WGCNA::cor(d, use = "p"), nrow(d)))
  if (!anyNA(d)) {
    for (nt in c("unsigned", "signed", "signed hybrid")) for (tt in c("unsigned", "signed"))
      for (ct in c("pearson", "bicor")) {
        put(paste(name, "tfe", nt, tt, ct, sep = "-"),
            TOMsimilarityFromExpr(d, corType = ct, networkType = nt, TOMType = tt, power = 6, verbose = 0))
      }
  }
}
