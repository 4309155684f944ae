# Hierarchical clustering by the engine (python/curnet/analyses/linkage.py): R's hclust object from
# average, complete or single linkage, on the GPU when there is one.

#' Hierarchical clustering on the GPU, as \code{hclust}
#'
#' A drop-in for \code{stats::hclust} and \code{fastcluster::hclust} with \code{method}
#' \code{"average"} (WGCNA's), \code{"complete"} or \code{"single"}. On a GPU the engine runs
#' the nearest-neighbour chain (Müllner, 2011) over the dissimilarities held in GPU memory,
#' one merge after another with Lance-Williams updates on the device; on the CPU it runs the
#' \code{fastcluster} code (Python's \code{fastcluster} package, else SciPy's
#' \code{linkage}).
#'
#' The result is an \code{hclust} object: \code{merge}, \code{height}, \code{order},
#' \code{labels}, \code{method}, \code{call} and \code{dist.method}, equal to
#' \code{fastcluster::hclust}'s (heights to about 1e-15) and, away from exact ties, to
#' \code{stats::hclust}'s. Ties: among equally near clusters the merge goes to the previous
#' cluster of the nearest-neighbour chain, else to the lowest index, as in fastcluster, so
#' the tree is fastcluster's (and WGCNA's) even on exact ties; \code{stats::hclust} may
#' merge another tied pair first, which can change its tree (and, for average and complete
#' linkage, later heights; single linkage's heights cannot change).
#'
#' For 1 - TOM computed and clustered without leaving the GPU, see
#' \code{\link{cuRnet_blockwiseModules}}.
#'
#' @param d A dissimilarity: a \code{dist} object, or a symmetric numeric matrix (read as
#'   \code{as.dist(d)}); no \code{NA}, \code{NaN} or infinite values.
#' @param method \code{"average"}, \code{"complete"} or \code{"single"} (partial matching as
#'   in \code{hclust}).
#' @param members Not supported (must be \code{NULL}).
#' @param backend \code{"auto"}, \code{"cpu"}, \code{"cuda"} or \code{"cuda:N"}.
#' @return An object of class \code{hclust}.
#' @examples
#' if (cuRnet_available()) {
#'   d <- dist(USArrests)
#'   h <- cuRnet_hclust(d, "average")
#'   cutree(h, k = 4)
#' }
#' @export
cuRnet_hclust <- function(d, method = "average", members = NULL, backend = "auto") {
  if (!is.null(members)) stop("cuRnet_hclust does not support 'members'", call. = FALSE)
  methods <- c("average", "complete", "single")
  if (!is.character(method) || length(method) != 1 || is.na(pmatch(method, methods))) {
    stop("'method' must be one of \"average\", \"complete\" or \"single\"", call. = FALSE)
  }
  method <- methods[pmatch(method, methods)]
  if (inherits(d, "dist")) {
    n <- as.integer(attr(d, "Size"))
    labels <- attr(d, "Labels")
    dist_method <- attr(d, "method")
    condensed <- TRUE
  } else if (is.matrix(d) && is.numeric(d)) {
    if (nrow(d) != ncol(d)) stop(sprintf("'d' must be a square matrix, got %d x %d", nrow(d), ncol(d)), call. = FALSE)
    n <- nrow(d)
    labels <- if (!is.null(rownames(d))) rownames(d) else colnames(d)
    dist_method <- NULL
    condensed <- FALSE
  } else {
    stop("'d' must be a dist object or a numeric matrix, not ", class(d)[1], call. = FALSE)
  }
  if (is.null(n) || length(n) != 1 || n < 2) stop("'d' must hold at least 2 objects", call. = FALSE)
  if (condensed && length(d) != n * (n - 1) / 2) {
    stop(sprintf("'d' holds %.0f values where a dist of Size %d holds %.0f", as.double(length(d)), n,
                 n * (n - 1) / 2), call. = FALSE)
  }
  # a double dist or matrix goes as it is: the engine reads R's memory by its address. 20,000
  # genes' dist is 1.6 GB; each pass over it here costs 0.3-0.7 s on a GPU machine's host, so
  # R makes none: the engine checks the values are finite (NA is a NaN) and a matrix symmetric,
  # on the GPU there
  values <- if (is.double(d)) d else as.double(d)
  r <- engine_call(held_result(engine_module("modules")$hclust_for_r(data_address(values), n, condensed, method,
                                                                      backend = backend)))
  structure(list(merge = matrix(r$merge, ncol = 2),
                 height = r$height,
                 order = r$order,
                 labels = labels,
                 method = method,
                 call = match.call(),
                 dist.method = dist_method),
            class = "hclust")
}
