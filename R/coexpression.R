# Co-expression networks and WGCNA's network quantities, computed by the engine
# (python/curnet/coexpression.py): correlations as tiled matrix products on the GPU (or the
# CPU), dense results written straight into R's matrices.

#' Build a gene co-expression network
#'
#' Correlates every pair of genes of an expression matrix (Pearson, Spearman, or WGCNA's
#' biweight midcorrelation \code{"bicor"}) on the GPU (or the CPU) a tile at a time, and keeps
#' the pairs with \eqn{|r| \ge} \code{threshold} (\eqn{r \ge} \code{threshold} with
#' \code{signed = TRUE}), or each gene's \code{top_k} best partners. The dense genes x genes
#' matrix is never built, so 40,000 genes fit. Missing values are handled as
#' \code{use = "pairwise.complete.obs"}: a pair is correlated over the samples both genes
#' have. A gene whose correlation is undefined (constant) gets no edges and is named in a
#' warning. Definitions are WGCNA 1.72's (bicor: \code{maxPOutliers = 1}, Pearson for genes
#' whose median absolute deviation is zero).
#'
#' Orientation: a matrix or data frame is read with its genes in rows (Bioconductor's layout)
#' unless \code{genes = "columns"} (WGCNA's \code{datExpr}, samples x genes, which the WGCNA
#' drop-ins such as \code{\link{cuRnet_adjacency}} read); an \code{ExpressionSet} or
#' \code{SummarizedExperiment} is always read with its genes in rows. Left to its default,
#' \code{genes} warns when the matrix looks transposed: at least 5 times as many samples as
#' genes (and 100 or more), gene ids such as \code{ENSG...} or \code{..._at} as sample names,
#' or sample ids such as \code{GSM...} as gene names. Give \code{genes} to say which.
#'
#' @param expr A numeric matrix or data frame, an \code{ExpressionSet} (Biobase) or a
#'   \code{SummarizedExperiment} (its first assay). Genes are rows (Bioconductor's layout)
#'   unless \code{genes = "columns"} (WGCNA's \code{datExpr} layout); see Details.
#' @param method \code{"pearson"}, \code{"spearman"} or \code{"bicor"}.
#' @param threshold Keep pairs with \eqn{|r| \ge} threshold (give this or \code{top_k}).
#' @param top_k Keep each gene's \code{top_k} partners of largest \eqn{|r|}; a pair is kept
#'   when either gene chose the other.
#' @param signed \code{TRUE}: rank and threshold \eqn{r} itself (positive correlation only).
#' @param as \code{"cuRnet"} (a \code{cuRnet_graph}), \code{"igraph"}, or \code{"data.frame"}
#'   (the edge table).
#' @param genes \code{"rows"} or \code{"columns"}: where the genes of a matrix or data frame are
#'   (ignored for Bioconductor objects, whose genes are rows).
#' @param weight The graph's edge weights: \code{"abs"} (\eqn{|r|}), \code{"distance"}
#'   (\eqn{1 - |r|}: short paths through strong correlations), \code{"r"} (signed networks
#'   only), or \code{"none"} (hops).
#' @param pvalues Add two-sided p-values by Fisher's z (WGCNA's \code{corPvalueFisher}),
#'   with each pair's number of complete samples.
#' @param maxPOutliers bicor's largest share of outliers on each side (WGCNA's argument).
#' @param backend \code{"auto"}, \code{"cpu"}, \code{"cuda"} or \code{"cuda:N"}.
#' @return A \code{cuRnet_graph} (undirected, every gene a vertex; its edge table, with
#'   columns \code{from}, \code{to}, \code{r} and \code{p}, is \code{$edges}), an igraph with
#'   edge attributes \code{r}, \code{weight} (and \code{p}), or the edge table.
#' @examples
#' if (cuRnet_available()) {
#'   set.seed(1)
#'   x <- matrix(rnorm(200 * 20), 200, 20, dimnames = list(paste0("g", 1:200), NULL))
#'   x[2, ] <- x[1, ] + rnorm(20, sd = 0.1)
#'   g <- cuRnet_coexpression(x, threshold = 0.8)
#'   g$edges
#' }
#' @export
cuRnet_coexpression <- function(expr, method = c("pearson", "spearman", "bicor"), threshold = NULL,
                                top_k = NULL, signed = FALSE, as = c("cuRnet", "igraph", "data.frame"),
                                genes = c("rows", "columns"), weight = c("abs", "distance", "r", "none"),
                                pvalues = FALSE, maxPOutliers = 1, backend = "auto") {
  method <- match.arg(method)
  as <- match.arg(as)
  weight <- match.arg(weight)
  if (is.null(threshold) == is.null(top_k)) {
    stop("give exactly one of threshold (pairs with |r| >= threshold) or top_k (each gene's best partners)",
         call. = FALSE)
  }
  if (!is.null(threshold)) check_number(threshold, "threshold", 0, 1)
  if (!is.null(top_k)) check_number(top_k, "top_k", 1, whole = TRUE)
  check_number(maxPOutliers, "maxPOutliers", 0, 1)
  x <- expression_matrix(expr, match.arg(genes), what = "expr", layout = if (missing(genes)) paste(
    "cuRnet_coexpression reads a matrix with its genes in rows (Bioconductor's layout): give genes = \"columns\"",
    "for samples x genes (WGCNA's datExpr), or genes = \"rows\" to keep this reading"))
  names <- x$labels
  if (anyDuplicated(names)) {
    stop(sprintf(paste("gene names must be unique to name the network's vertices; duplicated: %s",
                       "(use make.unique() or collapse the probes)"),
                 show_some(unique(names[duplicated(names)]))), call. = FALSE)
  }
  res <- engine_call(held_result(engine_module("coexpression")$coexpression_edges_for_r(
    as_arrow(as.double(x$m)), nrow(x$m), ncol(x$m), x$genes_in_rows, method,
    if (is.null(threshold)) NULL else as.numeric(threshold),
    if (is.null(top_k)) NULL else as.integer(top_k), isTRUE(signed), isTRUE(pvalues),
    as.numeric(maxPOutliers), backend = backend, names = as.list(names))))
  for (w in res$warnings) warning(w, call. = FALSE)
  r <- res$r
  edges <- data.frame(from = names[res$from], to = names[res$to], r = r, stringsAsFactors = FALSE)
  if (isTRUE(pvalues)) edges$p <- res$p
  if (weight == "r" && any(r < 0)) {
    stop("weight = \"r\" needs non-negative correlations (signed = TRUE, threshold >= 0)", call. = FALSE)
  }
  w <- switch(weight, abs = abs(r), distance = 1 - abs(r), r = r, none = NULL)
  if (as == "data.frame") return(edges)
  if (as == "igraph") {
    g <- igraph::graph_from_data_frame(edges, directed = FALSE, vertices = data.frame(name = names))
    if (!is.null(w)) igraph::E(g)$weight <- w
    return(g)
  }
  table <- data.frame(from = edges$from, to = edges$to)
  g <- cuRnet_graph(table, directed = FALSE, weights = if (is.null(w)) NA else w, vertices = names)
  g$edges <- edges
  g
}

# The numeric matrix of `expr`: where its genes are, their names (NULL when it has none) and
# labels (the names, or "gene1", ...). A Bioconductor object is always read with its genes in
# rows (its features), whatever `genes` says; a matrix or data frame as `genes` says, with a
# warning when it looks transposed (`layout` says the caller's convention and how to change it;
# NULL: the caller chose `genes` explicitly, no warning).
expression_matrix <- function(expr, genes = "rows", layout = NULL, what = "expr") {
  bioconductor <- TRUE
  if (inherits(expr, "ExpressionSet")) {
    if (!requireNamespace("Biobase", quietly = TRUE)) stop("an ExpressionSet needs the Biobase package", call. = FALSE)
    m <- Biobase::exprs(expr)
  } else if (inherits(expr, "SummarizedExperiment")) {
    if (!requireNamespace("SummarizedExperiment", quietly = TRUE)) {
      stop("a SummarizedExperiment needs the SummarizedExperiment package", call. = FALSE)
    }
    m <- as.matrix(SummarizedExperiment::assay(expr, 1))
  } else {
    bioconductor <- FALSE
    if (is.data.frame(expr)) {
      bad <- names(expr)[!vapply(expr, is.numeric, logical(1))]
      if (length(bad)) {
        stop(sprintf(paste("%s: expression data frames must hold numbers only; column(s) %s are not numeric",
                           "(move gene names to the row names)"),
                     what, show_some(bad)), call. = FALSE)
      }
      m <- as.matrix(expr)
    } else if (is.matrix(expr) && is.numeric(expr)) {
      m <- expr
    } else {
      stop(what, " must be a numeric matrix or data frame, an ExpressionSet or a SummarizedExperiment, not ",
           class(expr)[1], call. = FALSE)
    }
  }
  in_rows <- bioconductor || genes == "rows"
  names <- if (in_rows) rownames(m) else colnames(m)
  n <- if (in_rows) nrow(m) else ncol(m)
  if (!bioconductor && !is.null(layout)) {
    why <- reticulate::py_to_r(engine_module("coexpression")$looks_transposed_for_r(
      n, if (in_rows) ncol(m) else nrow(m), if (!is.null(names)) as.list(names),
      if (!is.null(dimnames(m)[[if (in_rows) 2 else 1]])) as.list(dimnames(m)[[if (in_rows) 2 else 1]])))
    if (!is.null(why)) warning(sprintf("%s looks transposed: %s. %s", what, why, layout), call. = FALSE)
  }
  list(m = m, genes_in_rows = in_rows, names = names,
       labels = if (is.null(names)) paste0("gene", seq_len(n)) else names)
}

# The WGCNA drop-ins' convention, said in their warning.
wgcna_layout <- paste("cuRnet's WGCNA drop-ins read a matrix as samples x genes, as WGCNA does: give t(datExpr)",
                      "if its genes are rows, or an ExpressionSet or SummarizedExperiment",
                      "(always read with genes in rows)")

# WGCNA's corFnc / corOptions as the engine's method and maxPOutliers, and `x` (from
# expression_matrix) with corOptions' `use` applied: "pairwise.complete.obs" is the engine's
# own; "all.obs" (WGCNA's cor() default, taken when corOptions has no `use`) refuses missing
# values as WGCNA does; "complete.obs" / "na.or.complete" drop the samples with any.
cor_method <- function(corFnc, corOptions, x) {
  if (is.character(corOptions)) {
    corOptions <- eval(parse(text = paste0("list(", corOptions, ")")))
  }
  if (!is.list(corOptions)) stop("corOptions must be a list (or WGCNA's character form)", call. = FALSE)
  wgcna_fn <- function(name) {
    requireNamespace("WGCNA", quietly = TRUE) && identical(corFnc, getExportedValue("WGCNA", name))
  }
  name <- if (is.character(corFnc) && length(corFnc) == 1) corFnc else if (is.function(corFnc)) {
    if (wgcna_fn("bicor")) "bicor" else if (identical(corFnc, stats::cor) || wgcna_fn("cor")) "cor" else "a function"
  } else "?"
  if (!name %in% c("cor", "bicor")) {
    stop("corFnc must be cor or bicor (their names or WGCNA's functions): cuRnet computes these itself and ",
         "cannot run another R function on the engine; for another correlation, compute it in R and use ",
         "WGCNA::adjacency.fromSimilarity()", call. = FALSE)
  }
  known <- if (name == "cor") c("use", "method", "nThreads", "verbose", "indent", "quick") else
    c("use", "maxPOutliers", "pearsonFallback", "nThreads", "verbose", "indent", "quick")
  unknown <- setdiff(names(corOptions), known)
  if (length(unknown) || any(!nzchar(names(corOptions)))) {
    stop(sprintf("corOptions: %s not supported with corFnc = %s (cuRnet takes %s)",
                 show_some(if (length(unknown)) unknown else "unnamed entries"), name,
                 paste(setdiff(known, c("nThreads", "verbose", "indent")), collapse = ", ")), call. = FALSE)
  }
  if (!is.null(corOptions$quick) && !identical(as.numeric(corOptions$quick), 0)) {
    stop("corOptions quick > 0 (WGCNA's approximate handling of missing values) is not supported: ",
         "cuRnet computes exactly", call. = FALSE)
  }
  if (!is.null(corOptions$pearsonFallback) && !identical(corOptions$pearsonFallback, "individual")) {
    stop("corOptions pearsonFallback: only \"individual\" (WGCNA's default) is supported", call. = FALSE)
  }
  method <- "pearson"
  if (name == "bicor") {
    method <- "bicor"
  } else if (!is.null(corOptions$method)) {
    method <- match.arg(corOptions$method, c("pearson", "kendall", "spearman"))
    if (method == "kendall") {
      stop("corOptions method = \"kendall\" is not supported: cuRnet computes Pearson and Spearman correlations ",
           "(and bicor)", call. = FALSE)
    }
  }
  use <- if (is.null(corOptions$use)) "all.obs" else
    match.arg(corOptions$use, c("all.obs", "complete.obs", "pairwise.complete.obs", "everything", "na.or.complete"))
  missing_values <- anyNA(x$m)
  if (missing_values && use == "all.obs") {
    stop("missing values in the expression data, and corOptions use = \"all.obs\" (WGCNA's default when corOptions ",
         "gives no use) refuses them, as WGCNA does: consider use = \"pairwise.complete.obs\" (\"p\")", call. = FALSE)
  }
  if (missing_values && use == "everything") {
    stop("corOptions use = \"everything\" with missing values (NA correlations) is not supported: ",
         "use \"pairwise.complete.obs\" or \"complete.obs\"", call. = FALSE)
  }
  if (missing_values && use %in% c("complete.obs", "na.or.complete")) {
    complete <- if (x$genes_in_rows) colSums(is.na(x$m)) == 0 else rowSums(is.na(x$m)) == 0
    if (!any(complete)) stop("no sample is complete (corOptions use = \"", use, "\")", call. = FALSE)
    x$m <- if (x$genes_in_rows) x$m[, complete, drop = FALSE] else x$m[complete, , drop = FALSE]
  }
  list(method = method, maxPOutliers = if (is.null(corOptions$maxPOutliers)) 1 else corOptions$maxPOutliers, x = x)
}

# Stops, naming them, on the WGCNA arguments that were given values cuRnet cannot honour
# (each TRUE in `...`): an argument is supported or refused, never ignored.
refuse <- function(wgcna, ...) {
  given <- c(...)
  if (any(given)) {
    ours <- if (wgcna == "TOMsimilarity") "cuRnet_TOM" else paste0("cuRnet_", wgcna)
    stop(sprintf("%s: %s not supported by cuRnet (leave %s at WGCNA's default, or use WGCNA::%s)",
                 ours, paste(names(given)[given], collapse = ", "),
                 if (sum(given) == 1) "it" else "them", wgcna), call. = FALSE)
  }
}

# A dense genes x genes result of the engine, allocated by R after the memory check.
dense_result <- function(n, names, fill) {
  engine_call(engine_module("handoff")$check_result_fits(n, n, 8L))
  out <- new_result("double", n, n)
  fill(data_address(out))
  if (!is.null(names)) dimnames(out) <- list(names, names)
  out
}

#' WGCNA's adjacency, TOM and soft-threshold fit on the GPU
#'
#' Drop-ins for \code{WGCNA::adjacency()}, \code{WGCNA::pickSoftThreshold()},
#' \code{WGCNA::TOMsimilarity()} and \code{WGCNA::TOMsimilarityFromExpr()}: same arguments,
#' defaults and results (equal to WGCNA 1.72's to about 1e-12), computed by the engine on
#' the GPU when there is one (\code{backend}).
#'
#' Orientation: a matrix or data frame is read as WGCNA reads it, samples x genes
#' (\code{datExpr}); an \code{ExpressionSet} (Biobase) or \code{SummarizedExperiment} (its
#' first assay) is always read with its genes in rows, as Bioconductor stores them. A matrix
#' that looks transposed (at least 5 times as many genes as samples and 100 or more, gene ids
#' such as \code{ENSG...} or \code{..._at} as sample names, or sample ids such as
#' \code{GSM...} as gene names) is a warning. (\code{\link{cuRnet_coexpression}} reads genes
#' in rows by default: Bioconductor's layout.)
#'
#' Every WGCNA argument is taken, and what cuRnet cannot honour is an error that names it,
#' never ignored; a misspelt argument is R's "unused argument" error, as in WGCNA.
#' \code{corFnc}: \code{"cor"} / \code{cor} (Pearson; \code{corOptions = list(method =
#' "spearman")} for Spearman; Kendall is refused) or \code{"bicor"} / \code{bicor} (with
#' \code{maxPOutliers}); another function is refused. \code{corOptions$use}:
#' \code{"pairwise.complete.obs"} (\code{"p"}); \code{"all.obs"} (WGCNA's \code{cor()}
#' default, also when \code{corOptions} gives no \code{use}) is an error on missing values, as
#' in WGCNA; \code{"complete.obs"} drops the samples with missing values. Refused:
#' \code{selectCols}, \code{weights}, \code{type = "distance"}, \code{dataIsExpr = FALSE},
#' and in \code{cuRnet_TOMsimilarityFromExpr} \code{quickCor > 0},
#' \code{pearsonFallback} other than \code{"individual"}, \code{cosineCorrelation},
#' \code{replaceMissingAdjacencies}, and \code{suppressTOMForZeroAdjacencies} in both TOM functions.
#' \code{blockSize}, \code{gcInterval}, \code{nThreads}, \code{useInternalMatrixAlgebra},
#' \code{distFnc}, \code{distOptions} and \code{weightArgNames} change no result and are
#' accepted.
#'
#' @param datExpr,data Expression data: samples x genes (matrix or data frame), or an
#'   \code{ExpressionSet} / \code{SummarizedExperiment} (genes in rows).
#' @param type,networkType \code{"unsigned"}, \code{"signed"} or \code{"signed hybrid"}.
#' @param power Soft-thresholding power.
#' @param corFnc,corOptions The correlation, as in WGCNA (see Details).
#' @param powerVector,RsquaredCut,removeFirst,nBreaks,moreNetworkConcepts As in
#'   \code{WGCNA::pickSoftThreshold}.
#' @param adjMat An adjacency matrix (for \code{cuRnet_TOM}).
#' @param TOMType \code{"unsigned"} or \code{"signed"}.
#' @param TOMDenom \code{"min"} or \code{"mean"}.
#' @param corType \code{"pearson"} or \code{"bicor"}.
#' @param maxPOutliers bicor's largest share of outliers on each side.
#' @param suppressNegativeTOM As in WGCNA: negative TOM values (signed TOM) set to 0.
# WGCNA's argument names, listed on one line as roxygen requires (lintr left out)
# nolint start
#' @param selectCols,weights,dataIsExpr,quickCor,pearsonFallback,cosineCorrelation,replaceMissingAdjacencies,suppressTOMForZeroAdjacencies
# nolint end
#'   WGCNA's arguments; only their defaults are supported (see Details).
#' @param distFnc,distOptions,weightArgNames,blockSize,gcInterval,useInternalMatrixAlgebra,nThreads,verbose,indent
#'   WGCNA's arguments that change no result; accepted.
#' @param backend \code{"auto"}, \code{"cpu"}, \code{"cuda"} or \code{"cuda:N"}.
#' @return As WGCNA's functions: a genes x genes matrix, or for
#'   \code{cuRnet_pickSoftThreshold} a list of \code{powerEstimate} and \code{fitIndices}.
#' @examples
#' if (cuRnet_available()) {
#'   set.seed(1)
#'   d <- matrix(rnorm(30 * 100), 30, 100)
#'   a <- cuRnet_adjacency(d, power = 6)
#'   tom <- cuRnet_TOM(a)
#'   fit <- cuRnet_pickSoftThreshold(d, verbose = 0)
#' }
#' @export
cuRnet_adjacency <- function(datExpr, selectCols = NULL, type = "unsigned", power = if (type == "distance") 1 else 6,
                             corFnc = "cor", corOptions = list(use = "p"), weights = NULL, distFnc = "dist",
                             distOptions = "method = 'euclidean'", weightArgNames = c("weights.x", "weights.y"),
                             backend = "auto") {
  refuse("adjacency", selectCols = !is.null(selectCols), weights = !is.null(weights),
         `type = "distance"` = identical(type, "distance"))
  check_number(power, "power", 0, above = TRUE)
  x <- expression_matrix(datExpr, "columns", wgcna_layout, "datExpr")
  cm <- cor_method(corFnc, corOptions, x)
  dense_result(length(x$labels), x$names, function(address) {
    engine_call(engine_module("coexpression")$wgcna_dense_into(
      "adjacency", address, as_arrow(as.double(cm$x$m)), nrow(cm$x$m), ncol(cm$x$m), cm$x$genes_in_rows,
      backend = backend, type = type, power = as.numeric(power), method = cm$method,
      max_p_outliers = as.numeric(cm$maxPOutliers)))
  })
}

#' @rdname cuRnet_adjacency
#' @export
cuRnet_pickSoftThreshold <- function(data, dataIsExpr = TRUE, weights = NULL, RsquaredCut = 0.85,
                                     powerVector = c(seq(1, 10, by = 1), seq(12, 20, by = 2)),
                                     removeFirst = FALSE, nBreaks = 10, blockSize = NULL, corFnc = "cor",
                                     corOptions = list(use = "p"), networkType = "unsigned",
                                     moreNetworkConcepts = FALSE, gcInterval = NULL, verbose = 0,
                                     indent = 0, backend = "auto") {
  refuse("pickSoftThreshold", `dataIsExpr = FALSE` = !isTRUE(dataIsExpr), weights = !is.null(weights))
  if (!is.numeric(powerVector) || !length(powerVector) || anyNA(powerVector) || any(powerVector <= 0)) {
    stop(sprintf("`powerVector` must be positive numbers, not %s", shown_value(powerVector)), call. = FALSE)
  }
  check_number(RsquaredCut, "RsquaredCut", 0, 1)
  check_number(nBreaks, "nBreaks", 2, whole = TRUE)
  x <- expression_matrix(data, "columns", wgcna_layout, "data")
  cm <- cor_method(corFnc, corOptions, x)
  res <- engine_call(held_result(engine_module("coexpression")$pick_soft_threshold_for_r(
    as_arrow(as.double(cm$x$m)), nrow(cm$x$m), ncol(cm$x$m), cm$x$genes_in_rows, backend = backend,
    powers = as.numeric(powerVector), network_type = networkType, method = cm$method,
    rsquared_cut = as.numeric(RsquaredCut), remove_first = isTRUE(removeFirst), n_breaks = as.integer(nBreaks),
    more_network_concepts = isTRUE(moreNetworkConcepts), max_p_outliers = as.numeric(cm$maxPOutliers))))
  table <- as.data.frame(lapply(res$fitIndices[unlist(res$columns)], as.numeric))
  names(table) <- make.names(unlist(res$columns))
  if (verbose >= 0) print(signif(table, 3))
  list(powerEstimate = if (is.null(res$powerEstimate)) NA_real_ else res$powerEstimate, fitIndices = table)
}

#' @rdname cuRnet_adjacency
#' @export
cuRnet_TOM <- function(adjMat, TOMType = "unsigned", TOMDenom = "min", suppressTOMForZeroAdjacencies = FALSE,
                       suppressNegativeTOM = FALSE, useInternalMatrixAlgebra = FALSE, verbose = 1, indent = 0,
                       backend = "auto") {
  refuse("TOMsimilarity", suppressTOMForZeroAdjacencies = !isFALSE(suppressTOMForZeroAdjacencies))
  adjMat <- as.matrix(adjMat)
  n <- nrow(adjMat)
  if (n != ncol(adjMat)) stop("adjMat must be a square matrix", call. = FALSE)
  tom <- dense_result(n, NULL, function(address) {
    engine_call(engine_module("coexpression")$tom_into(address, as_arrow(as.double(adjMat)), n, backend = backend,
                                  tom_type = TOMType, tom_denom = TOMDenom))
  })
  if (isTRUE(suppressNegativeTOM)) tom[tom < 0] <- 0
  tom
}

#' @rdname cuRnet_adjacency
#' @export
cuRnet_TOMsimilarityFromExpr <- function(datExpr, weights = NULL, corType = "pearson", networkType = "unsigned",
                                         power = 6, TOMType = "signed", TOMDenom = "min", maxPOutliers = 1,
                                         quickCor = 0, pearsonFallback = "individual", cosineCorrelation = FALSE,
                                         replaceMissingAdjacencies = FALSE, suppressTOMForZeroAdjacencies = FALSE,
                                         suppressNegativeTOM = FALSE, useInternalMatrixAlgebra = FALSE,
                                         nThreads = 0, verbose = 1, indent = 0, backend = "auto") {
  refuse("TOMsimilarityFromExpr", weights = !is.null(weights), quickCor = !identical(as.numeric(quickCor), 0),
         pearsonFallback = !identical(pearsonFallback, "individual"), cosineCorrelation = !isFALSE(cosineCorrelation),
         replaceMissingAdjacencies = !isFALSE(replaceMissingAdjacencies),
         suppressTOMForZeroAdjacencies = !isFALSE(suppressTOMForZeroAdjacencies))
  check_number(power, "power", 0, above = TRUE)
  check_number(maxPOutliers, "maxPOutliers", 0, 1)
  x <- expression_matrix(datExpr, "columns", wgcna_layout, "datExpr")
  tom <- dense_result(length(x$labels), NULL, function(address) {
    engine_call(engine_module("coexpression")$wgcna_dense_into(
      "tom_from_expr", address, as_arrow(as.double(x$m)), nrow(x$m), ncol(x$m), x$genes_in_rows,
      backend = backend, cor_type = corType, network_type = networkType, power = as.numeric(power),
      tom_type = TOMType, tom_denom = TOMDenom, max_p_outliers = as.numeric(maxPOutliers)))
  })
  if (isTRUE(suppressNegativeTOM)) tom[tom < 0] <- 0
  tom
}
