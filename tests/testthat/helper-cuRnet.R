skip_if_no_engine <- function() {
  skip_if_not(cuRnet_available(), "cuRnet's Python engine is not available (set RETICULATE_PYTHON)")
}

# STRINGdb's interactions_example: 12,583 proteins, 70,000 scored interactions.
string_sample <- function() {
  skip_if_not_installed("STRINGdb")
  env <- new.env()
  utils::data("interactions_example", package = "STRINGdb", envir = env)
  x <- env$interactions_example
  data.frame(from = x$proteinA, to = x$proteinB, weight = 1 - x$score + 1e-6)
}

# igraph's answer for the same question, in cuRnet's layout.
igraph_dist <- function(ig, v, mode = "out", weights = NA) {
  igraph::distances(ig, v, mode = mode, weights = weights)
}

# Checks shortest-path predecessors by validity, not equality: dist[p] + w(p, v) == dist[v].
expect_valid_predecessors <- function(ig, res, sources, tolerance = 1e-9) {
  el <- igraph::as_edgelist(ig, names = FALSE)
  w <- igraph::E(ig)$weight
  if (is.null(w)) w <- rep(1, nrow(el))
  if (!igraph::is_directed(ig)) {
    el <- rbind(el, el[, 2:1])
    w <- c(w, w)
  }
  best <- tapply(w, paste(el[, 1], el[, 2]), min)
  d <- res$distances
  p <- res$predecessors
  for (i in seq_along(sources)) {
    has <- which(!is.na(p[i, ]))
    expect_true(all(is.finite(d[i, has])))
    arc <- as.vector(best[paste(p[i, has], has)])
    expect_false(anyNA(arc))
    expect_equal(unname(d[i, p[i, has]] + arc), unname(d[i, has]), tolerance = tolerance)
    reach <- setdiff(which(is.finite(d[i, ])), sources[i])
    expect_true(all(reach %in% has))
  }
}

# A test that calls library(pkg) (documented usage, verbatim) detaches it again when done, so
# that later test files run with the search path they expect.
local_attached <- function(pkg, envir = parent.frame()) {
  was <- paste0("package:", pkg) %in% search()
  withr::defer(if (!was && paste0("package:", pkg) %in% search()) {
    detach(paste0("package:", pkg), character.only = TRUE)
  }, envir = envir)
}

# One field of a result against igraph's (or another oracle's). unclass() first: `[[` on an S3
# object may be the class's own (on a `communities` object it indexes the groups, so
# got[["merges"]] is NULL on both sides and any comparison of the two passes). The oracle's
# field must exist and, unless `empty_ok`, hold something, so that NULL == NULL or
# numeric(0) == numeric(0) never passes for a comparison.
expect_same_field <- function(got, want, field, ..., empty_ok = FALSE) {
  g <- unclass(got)[[field]]
  w <- unclass(want)[[field]]
  if (is.null(w) || (!empty_ok && !length(w))) {
    return(fail(sprintf("the oracle's field `%s` is %s: nothing would be compared", field,
                        if (is.null(w)) "NULL" else "empty")))
  }
  expect_equal(g, w, ..., info = field)
}
