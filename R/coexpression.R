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
#' @param expr A numeric matrix or data frame, an \code{ExpressionSet} (Biobase) or a
#'   \code{SummarizedExperiment} (its first assay). Genes are rows (Bioconductor's layout)
#'   unless \code{genes = "columns"} (WGCNA's \code{datExpr} layout).
#' @param method \code{"pearson"}, \code{"spearman"} or \code{"bicor"}.
#' @param threshold Keep pairs with \eqn{|r| \ge} threshold (give this or \code{top_k}).
#' @param top_k Keep each gene's \code{top_k} partners of largest \eqn{|r|}; a pair is kept
#'   when either gene chose the other.
#' @param signed \code{TRUE}: rank and threshold \eqn{r} itself (positive correlation only).
#' @param as \code{"cuRnet"} (a \code{cuRnet_graph}), \code{"igraph"}, or \code{"data.frame"}
#'   (the edge table).
#' @param genes \code{"rows"} or \code{"columns"}: where the genes of a matrix or data frame are.
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
  x <- expression_matrix(expr, match.arg(genes))
  names <- x$names
  if (anyDuplicated(names)) {
    stop(sprintf("gene names must be unique to name the network's vertices; duplicated: %s (use make.unique() or collapse the probes)",
                 show_some(unique(names[duplicated(names)]))), call. = FALSE)
  }
  res <- reticulate::py_to_r(engine_call(bridge()$coexpression_edges_for_r(
    as_arrow(as.double(x$m)), nrow(x$m), ncol(x$m), x$genes_in_rows, method,
    if (is.null(threshold)) NULL else as.numeric(threshold),
    if (is.null(top_k)) NULL else as.integer(top_k), isTRUE(signed), isTRUE(pvalues),
    as.numeric(maxPOutliers), backend = backend, names = as.list(names))))
  for (w in res$warnings) warning(w, call. = FALSE)
  m <- as.integer(res$m)
  from <- integer(m)
  to <- integer(m)
  r <- double(m)
  p <- if (isTRUE(pvalues)) double(m)
  engine_call(bridge()$coexpression_edges_into(data_address(from), data_address(to), data_address(r),
                                               if (!is.null(p)) data_address(p)))
  edges <- data.frame(from = names[from], to = names[to], r = r, stringsAsFactors = FALSE)
  if (!is.null(p)) edges$p <- p
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

# The numeric matrix of `expr`, with where its genes are and their names.
expression_matrix <- function(expr, genes = "rows") {
  if (inherits(expr, "ExpressionSet")) {
    if (!requireNamespace("Biobase", quietly = TRUE)) stop("an ExpressionSet needs the Biobase package", call. = FALSE)
    m <- Biobase::exprs(expr)
    genes <- "rows"
  } else if (inherits(expr, "SummarizedExperiment")) {
    if (!requireNamespace("SummarizedExperiment", quietly = TRUE)) {
      stop("a SummarizedExperiment needs the SummarizedExperiment package", call. = FALSE)
    }
    m <- as.matrix(SummarizedExperiment::assay(expr, 1))
    genes <- "rows"
  } else if (is.data.frame(expr)) {
    bad <- names(expr)[!vapply(expr, is.numeric, logical(1))]
    if (length(bad)) {
      stop(sprintf("expression data frames must hold numbers only; column(s) %s are not numeric (move gene names to the row names)",
                   show_some(bad)), call. = FALSE)
    }
    m <- as.matrix(expr)
  } else if (is.matrix(expr) && is.numeric(expr)) {
    m <- expr
  } else {
    stop("expr must be a numeric matrix or data frame, an ExpressionSet or a SummarizedExperiment, not ",
         class(expr)[1], call. = FALSE)
  }
  in_rows <- genes == "rows"
  names <- if (in_rows) rownames(m) else colnames(m)
  n <- if (in_rows) nrow(m) else ncol(m)
  if (is.null(names)) names <- paste0("gene", seq_len(n))
  list(m = m, genes_in_rows = in_rows, names = names)
}

# WGCNA's corFnc / corOptions as the engine's method and maxPOutliers.
cor_method <- function(corFnc, corOptions) {
  if (is.character(corOptions)) {
    corOptions <- eval(parse(text = paste0("list(", corOptions, ")")))
  }
  name <- if (is.character(corFnc)) corFnc else if (is.function(corFnc)) {
    if (requireNamespace("WGCNA", quietly = TRUE) && identical(corFnc, WGCNA::bicor)) "bicor" else "cor"
  } else "?"
  if (!name %in% c("cor", "bicor")) stop("corFnc must be cor or bicor", call. = FALSE)
  method <- if (name == "bicor") "bicor" else if (identical(corOptions$method, "spearman")) "spearman" else "pearson"
  list(method = method, maxPOutliers = if (is.null(corOptions$maxPOutliers)) 1 else corOptions$maxPOutliers)
}

# A dense genes x genes result of the engine, allocated by R after the memory check.
dense_result <- function(n, names, fill) {
  engine_call(bridge()$check_result_fits(n, n, 8L))
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
#' the GPU when there is one (\code{backend}). \code{datExpr} is samples x genes, as in WGCNA.
#' \code{corFnc} may be \code{cor} (Pearson; \code{corOptions = list(method = "spearman")}
#' for Spearman) or \code{bicor}. Not supported: \code{selectCols}, \code{weights},
#' \code{type = "distance"}, \code{dataIsExpr = FALSE}; they are errors.
#'
#' @param datExpr,data Expression data, samples x genes (matrix or data frame).
#' @param type,networkType \code{"unsigned"}, \code{"signed"} or \code{"signed hybrid"}.
#' @param power Soft-thresholding power.
#' @param corFnc,corOptions The correlation, as in WGCNA.
#' @param powerVector,RsquaredCut,removeFirst,nBreaks,moreNetworkConcepts As in
#'   \code{WGCNA::pickSoftThreshold}.
#' @param adjMat An adjacency matrix (for \code{cuRnet_TOM}).
#' @param TOMType \code{"unsigned"} or \code{"signed"}.
#' @param TOMDenom \code{"min"} or \code{"mean"}.
#' @param corType \code{"pearson"} or \code{"bicor"}.
#' @param maxPOutliers bicor's largest share of outliers on each side.
#' @param selectCols,weights,dataIsExpr,blockSize,gcInterval,verbose,indent,... Accepted for
#'   WGCNA compatibility (see above).
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
                             corFnc = "cor", corOptions = list(use = "p"), weights = NULL, ...,
                             backend = "auto") {
  if (!is.null(selectCols) || !is.null(weights) || type == "distance") {
    stop("cuRnet_adjacency supports neither selectCols, weights nor type = \"distance\"", call. = FALSE)
  }
  cm <- cor_method(corFnc, corOptions)
  x <- expression_matrix(datExpr, "columns")
  dense_result(length(x$names), colnames(datExpr), function(address) {
    engine_call(bridge()$wgcna_dense_into("adjacency", address, as_arrow(as.double(x$m)), nrow(x$m), ncol(x$m),
                                          FALSE, backend = backend, type = type, power = as.numeric(power),
                                          method = cm$method, max_p_outliers = as.numeric(cm$maxPOutliers)))
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
  if (!isTRUE(dataIsExpr) || !is.null(weights)) {
    stop("cuRnet_pickSoftThreshold takes expression data (dataIsExpr = TRUE) without weights", call. = FALSE)
  }
  cm <- cor_method(corFnc, corOptions)
  x <- expression_matrix(data, "columns")
  res <- reticulate::py_to_r(engine_call(bridge()$pick_soft_threshold_for_r(
    as_arrow(as.double(x$m)), nrow(x$m), ncol(x$m), FALSE, backend = backend,
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
cuRnet_TOM <- function(adjMat, TOMType = "unsigned", TOMDenom = "min", ..., verbose = 1, indent = 0,
                       backend = "auto") {
  adjMat <- as.matrix(adjMat)
  n <- nrow(adjMat)
  if (n != ncol(adjMat)) stop("adjMat must be a square matrix", call. = FALSE)
  dense_result(n, NULL, function(address) {
    engine_call(bridge()$tom_into(address, as_arrow(as.double(adjMat)), n, backend = backend,
                                  tom_type = TOMType, tom_denom = TOMDenom))
  })
}

#' @rdname cuRnet_adjacency
#' @export
cuRnet_TOMsimilarityFromExpr <- function(datExpr, corType = "pearson", networkType = "unsigned", power = 6,
                                         TOMType = "signed", TOMDenom = "min", maxPOutliers = 1, ...,
                                         verbose = 1, indent = 0, backend = "auto") {
  x <- expression_matrix(datExpr, "columns")
  dense_result(length(x$names), NULL, function(address) {
    engine_call(bridge()$wgcna_dense_into("tom_from_expr", address, as_arrow(as.double(x$m)), nrow(x$m),
                                          ncol(x$m), FALSE, backend = backend, cor_type = corType,
                                          network_type = networkType, power = as.numeric(power),
                                          tom_type = TOMType, tom_denom = TOMDenom,
                                          max_p_outliers = as.numeric(maxPOutliers)))
  })
}
