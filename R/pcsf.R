#' Prize-collecting Steiner forest: the PCSF package's PCSF() on cuRnet's shortest paths
#'
#' Finds the sub-network that links a study's genes (the terminals, with
#' prizes) through an interaction network, minimising edge costs + lost prizes
#' + \code{w} x (number of trees), where a terminal's prize is \code{b} x its
#' value and every other vertex is penalised by \code{mu} x its degree. The
#' method is the PCSF package's (Akhmedov et al. 2017): a dummy root joined to
#' the terminals by edges of cost \code{w}, costs adjusted by the hub
#' penalties, shortest paths from every terminal (one batched cuRnet call, on
#' the GPU when there is one), clustering, two minimum spanning trees and
#' pruning. Its arguments, defaults and result are \code{PCSF()}'s.
#'
#' Differences from \code{PCSF()}, documented rather than silent:
#' \itemize{
#'   \item \code{improve = FALSE} runs the package's method step for step,
#'     its two spanning trees made in the order of Boost's Prim (the package's),
#'     so that among equal costs (every root edge costs \code{w}; STRING's costs
#'     take few distinct values) the same edges are kept: on STRING's Tgfb
#'     prizes, random sets of 20-500 terminals and 40 small random networks,
#'     the package's forest edge for edge. Where two shortest paths cost the
#'     same, cuRnet's batched search may still take another than the package's
#'     Dijkstra (see \code{docs/pcsf-package.md}).
#'   \item with \code{improve = TRUE} (the default) cuRnet also hangs each
#'     tree from whichever of its terminals leaves it the most prize, then
#'     spans the forest's vertices again by a minimum spanning tree over
#'     every interaction among them and prunes again, keeping each step only
#'     where it lowers the objective: never worse than \code{improve = FALSE},
#'     on STRING 3-10\% lower;
#'   \item terminals whose prize pays for their root edge alone form trees
#'     of one vertex: the result leaves them out, as \code{PCSF()} does, and
#'     lists them in the graph attribute \code{singletons}; a forest of such
#'     trees only (a single terminal, say) is an empty graph, as \code{PCSF()}
#'     returns, and a forest of nothing is an error, as in \code{PCSF()};
#'   \item prizes must be positive numbers (\code{PCSF()} quietly treats a
#'     zero prize as none); a repeated name takes its last prize, as in
#'     \code{PCSF()}, with a warning; a terminal set of which fewer
#'     than 5\% are in the network is an error, as in \code{PCSF()};
#'   \item as \code{PCSF()}, edges of cost 0 are taken, and \code{dummies}
#'     outside the network are left out (with a warning; none in it is an
#'     error).
#' }
#'
#' Every number is checked before any work: \code{w} and \code{b} must be one
#' positive number, \code{mu} one number >= 0 (\code{NA} is an error, as in
#' \code{PCSF()}).
#'
#' @param ppi The interaction network: an undirected igraph object with
#'   vertex names and edge costs >= 0 in the \code{weight} attribute, no
#'   self-loop and no pair joined twice (see \code{\link{cuRnet_interactome}}).
#' @param terminals A named numeric vector: the terminals' prizes, named as
#'   the network's vertices. Names not in the network are left out (with a message).
#' @param w Cost of each tree (the root edges). Default 2.
#' @param b Multiplier of the terminals' prizes. Default 1.
#' @param mu Hub penalty per unit of degree for non-terminals. Default 0.0005.
#' @param dummies Vertices the root is joined to; missing, \code{NULL} or
#'   \code{NA}: the terminals.
#' @param improve \code{TRUE}: improve the package's forest (see Details);
#'   \code{FALSE}: the package's forest.
#' @param precision The shortest paths' arithmetic: \code{"double"} decides as
#'   the package does; \code{"single"} lets a GPU use its faster float32 search
#'   (the forest is still costed in double; equal-looking paths may then be
#'   chosen differently).
#' @param backend,progress As in \code{\link{cuRnet_sssp}}.
#' @return An igraph object of class \code{c("PCSF", "igraph")}: vertex
#'   attributes \code{prize} (b x value for terminals, -mu x degree for Steiner
#'   vertices, as \code{PCSF()}) and \code{type} (\code{"Terminal"} or
#'   \code{"Steiner"}), edge attribute \code{weight} (the edge's cost); graph
#'   attributes \code{objective} (the forest's objective, the sum of
#'   \code{objective_terms}), \code{objective_terms} (a named vector:
#'   \code{edges}, the edges' costs; \code{trees}, \code{w} x the number of
#'   trees, those of one terminal included; \code{lost_prizes}, of the
#'   terminals left out; \code{hub_penalties}, \code{mu} x degree of the
#'   Steiner vertices), \code{trees} (trees of one terminal included),
#'   \code{singletons} (the terminals of those trees, not in the graph) and
#'   \code{seconds} (where the
#'   call's time went: R's checks before the engine, the engine's setup, shortest
#'   paths and host steps, the hand-over, R's igraph result after it) and
#'   \code{work} (the engine's counted work: the shortest-path route taken).
#' @seealso \code{\link{cuRnet_pcsf_rand}}, \code{\link{cuRnet_interactome}}
#' @examples
#' if (cuRnet_available()) {
#'   ppi <- cuRnet_interactome(data.frame(from = c("A", "B", "C", "D"), to = c("B", "C", "D", "E"),
#'                                        cost = c(0.5, 0.4, 0.3, 0.9)))
#'   forest <- cuRnet_pcsf(ppi, c(A = 2, D = 1.5, E = 0.2))
#'   igraph::as_data_frame(forest)
#' }
#' @export
cuRnet_pcsf <- function(ppi, terminals, w = 2, b = 1, mu = 0.0005, dummies, improve = TRUE,
                        precision = c("double", "single"),
                        backend = getOption("cuRnet.backend", "auto"),
                        progress = getOption("cuRnet.progress", interactive())) {
  res <- pcsf_call(ppi, terminals, w, b, mu, if (!missing(dummies)) dummies, NULL, NULL, NULL,
                   improve, match.arg(precision), backend, progress)
  pcsf_result(res, "prize", "cost", list(objective = res$objective, objective_terms = unlist(res$objective_terms),
                                         trees = res$trees), singletons = TRUE, empty_ok = res$trees > 0)
}

#' Prize-collecting Steiner forests on noisy costs: PCSF_rand() on cuRnet
#'
#' Solves the forest \code{n} times, each time with every edge cost
#' multiplied by (1 + U(0, r)), and returns the union with each vertex's and
#' edge's number of appearances, as the PCSF package's \code{PCSF_rand()}. The
#' runs' shortest paths are batched: on a GPU, each call takes several runs'
#' noisy copies of the network side by side (as many as keep the call's work
#' linear in the runs: about 9 runs of 100 terminals on STRING); on the CPU,
#' one call a run.
#'
#' @inheritParams cuRnet_pcsf
#' @param n Number of runs. Default 10.
#' @param r Noise: each cost grows by up to this fraction. Default 0.1.
#' @param seed Seed of the noise; missing: drawn from R's random numbers, so
#'   \code{set.seed()} makes the result reproducible.
#' @return An igraph object of class \code{c("PCSF", "igraph")} as
#'   \code{PCSF_rand()}'s: vertex \code{prize} is the number of runs the vertex
#'   appears in (vertices of the union's edges), \code{type} as in
#'   \code{\link{cuRnet_pcsf}}, edge \code{weight} the number of runs with
#'   the edge; graph attributes \code{runs}, \code{objectives} (each run's,
#'   under its own noisy costs), \code{seconds} and \code{work} (as
#'   \code{\link{cuRnet_pcsf}}'s, over all runs).
#' @examples
#' if (cuRnet_available()) {
#'   ppi <- cuRnet_interactome(data.frame(from = c("A", "B", "C", "D"), to = c("B", "C", "D", "E"),
#'                                        cost = c(0.5, 0.4, 0.3, 0.9)))
#'   cuRnet_pcsf_rand(ppi, c(A = 2, D = 1.5, E = 0.2), n = 5, r = 0.2, seed = 1)
#' }
#' @export
cuRnet_pcsf_rand <- function(ppi, terminals, n = 10, r = 0.1, w = 2, b = 1, mu = 0.0005, dummies,
                             seed, improve = TRUE, precision = c("double", "single"),
                             backend = getOption("cuRnet.backend", "auto"),
                             progress = getOption("cuRnet.progress", interactive())) {
  n <- check_number(n, "n", lower = 1, whole = TRUE)
  r <- check_number(r, "r", lower = 0)
  seed <- if (missing(seed)) sample.int(.Machine$integer.max, 1) else
    check_number(seed, "seed", lower = 0, whole = TRUE)
  res <- pcsf_call(ppi, terminals, w, b, mu, if (!missing(dummies)) dummies, as.integer(n), r, seed,
                   improve, match.arg(precision), backend, progress)
  pcsf_result(res, "count", "count", list(runs = res$runs, objectives = as.numeric(res$objectives)))
}

#' An interaction network from a table of edges: construct_interactome() for cuRnet
#'
#' As the PCSF package's \code{construct_interactome()}: an undirected igraph
#' with the vertices in order of appearance in the first, then the second
#' column, and the costs as edge attribute \code{weight}; a pair listed twice
#' is one edge whose cost is the sum (igraph's \code{simplify()}, as the
#' package does), a self-loop is dropped. Costs of 0 are taken (a STRING score
#' of 1000), as the package takes them. Bad input is an error: not three
#' columns, missing names, costs that are missing, not numbers or negative.
#'
#' @param df A data frame of three columns: head, tail, cost.
#' @return An undirected igraph object with edge attribute \code{weight}.
#' @export
cuRnet_interactome <- function(df) {
  if (!is.data.frame(df) || ncol(df) != 3 || nrow(df) < 1) {
    stop("the interactome needs a data frame of three columns (head, tail, cost) and at least one row",
         call. = FALSE)
  }
  from <- as.character(df[[1]])
  to <- as.character(df[[2]])
  cost <- df[[3]]
  if (anyNA(from) || anyNA(to) || any(from == "") || any(to == "")) {
    stop("the interactome's first two columns must name both ends of every edge (missing names found)",
         call. = FALSE)
  }
  if (!is.numeric(cost)) stop("the interactome's third column (the costs) must be numeric", call. = FALSE)
  check_costs(cost, from, to, "row")
  g <- igraph::graph_from_data_frame(data.frame(from, to, weight = as.numeric(cost), stringsAsFactors = FALSE),
                                     directed = FALSE, vertices = unique(c(from, to)))
  igraph::simplify(g, edge.attr.comb = list(weight = "sum", "ignore"))
}

# Costs as PCSF() takes them: numbers >= 0; `what` names a position ("row", "edge"), 1-based.
check_costs <- function(cost, from, to, what) {
  bad <- is.na(cost) | !is.finite(cost) | cost < 0
  if (any(bad)) {
    i <- which(bad)[1]
    stop(sprintf("%s %d (%s - %s) has cost %s: costs must be numbers >= 0 (%d such %s(s))",
                 what, i, from[i], to[i], format(cost[i]), sum(bad), what), call. = FALSE)
  }
}

# The engine's call for both functions: every argument checked before any work, the
# matched-terminals message, the run.
pcsf_call <- function(ppi, terminals, w, b, mu, dummies, runs, noise, seed, improve, precision, backend,
                      progress) {
  entry <- proc.time()[["elapsed"]]
  if (missing(ppi) || !igraph::is_igraph(ppi)) {
    stop("the interaction network 'ppi' must be an igraph object (see cuRnet_interactome())", call. = FALSE)
  }
  if (igraph::is_directed(ppi)) stop("the interaction network must be undirected", call. = FALSE)
  vertex_names <- igraph::V(ppi)$name
  if (is.null(vertex_names)) {
    stop("the interaction network has no vertex names: terminals are matched by name", call. = FALSE)
  }
  cost <- igraph_edge_weights(ppi)
  if (is.null(cost)) stop("the interaction network has no edge costs (edge attribute 'weight')", call. = FALSE)
  if (!is.numeric(cost)) {
    stop("the interaction network's edge costs (edge attribute 'weight') must be numbers", call. = FALSE)
  }
  el <- igraph::as_edgelist(ppi, names = FALSE)
  check_costs(cost, vertex_names[el[, 1]], vertex_names[el[, 2]], "edge")
  if (!igraph::is_simple(ppi)) {
    loops <- which(igraph::which_loop(ppi))
    stop(sprintf(paste0("the interaction network has %s: build it with cuRnet_interactome(), which drops ",
                        "self-loops and sums the costs of a repeated pair, as PCSF's construct_interactome() does"),
                 if (length(loops)) sprintf("a self-loop (edge %d, on '%s')", loops[1], vertex_names[el[loops[1], 1]])
                 else "a pair of vertices joined twice"), call. = FALSE)
  }
  if (!is.numeric(terminals) || is.null(names(terminals))) {
    stop("terminals must be a named numeric vector of prizes, named as the network's vertices", call. = FALSE)
  }
  if (anyNA(names(terminals)) || any(names(terminals) == "")) {
    stop("every terminal needs a name (a missing or empty name was given)", call. = FALSE)
  }
  if (anyNA(terminals)) {
    stop(sprintf("prize of terminal %s is NA: prizes must be positive numbers",
                 show_some(names(terminals)[is.na(terminals)], 1)), call. = FALSE)
  }
  w <- check_number(w, "w", lower = 0, above = TRUE)
  b <- check_number(b, "b", lower = 0, above = TRUE)
  mu <- check_number(mu, "mu", lower = 0)
  check_flag(improve, "improve")
  if (!is.null(dummies) && all(is.na(dummies))) dummies <- NULL       # PCSF()'s reading of NA
  if (!is.null(dummies) && (!(is.character(dummies) || is.factor(dummies)) || anyNA(dummies))) {
    stop(sprintf(paste0("`dummies` must name vertices of the network (a character vector without NA), ",
                        "or be NULL or NA, not %s"), shown_value(dummies)), call. = FALSE)
  }
  dup <- unique(names(terminals)[duplicated(names(terminals))])
  if (length(dup)) {
    warning(sprintf("terminal names repeated: %s; the last prize of each is used, as PCSF() does",
                    show_some(dup)), call. = FALSE)
  }
  found <- names(terminals) %in% vertex_names
  message(sprintf("  %d of %d terminals (%s%%) are in the interactome%s", sum(found), length(terminals),
                  signif(100 * mean(found), 4),
                  if (any(!found)) paste0("; not found: ", show_some(names(terminals)[!found])) else ""))
  g <- igraph_engine_graph(ppi, as.double(cost))    # converted once, kept with ppi (R/igraph.R)
  started <- proc.time()[["elapsed"]]
  res <- engine_call(held_result(engine_module("pcsf")$pcsf_for_r(
    g$py, vertex_names, names(terminals), as.double(unname(terminals)), w, b, mu,
    if (!is.null(dummies)) as.character(dummies), runs, noise, seed,
    progress_hook(progress, "PCSF"), backend, improve, engine_dtype(precision))))
  res$started <- started
  res$r_entry <- entry
  res$returned <- proc.time()[["elapsed"]]
  res
}

# The engine's result as the PCSF package's igraph of class c("PCSF", "igraph"): vertices
# (name, prize, type) by name, those of no edge left out (with `singletons`, named in that
# graph attribute), edges (from, to, weight); `value` and `edge_value` name the engine's
# columns for prize and weight ("prize" and "cost" for a forest, "count" and "count" for a
# union of runs); graph attributes `attributes`, seconds and work. A forest of trees of one
# vertex only (empty_ok) is an empty graph, as PCSF() returns it.
pcsf_result <- function(res, value, edge_value, attributes, singletons = FALSE, empty_ok = FALSE) {
  v <- res$vertices
  e <- res$edges
  vertices <- data.frame(name = as.character(unlist(v$name)), prize = as.numeric(v[[value]]),
                         type = as.character(unlist(v$type)), stringsAsFactors = FALSE)
  edges <- data.frame(from = as.character(unlist(e$from)), to = as.character(unlist(e$to)),
                      weight = as.numeric(e[[edge_value]]), stringsAsFactors = FALSE)
  if (nrow(edges) == 0 && !empty_ok) {
    stop("no sub-network for these parameters (the forest has no edge): raise b or lower mu or w",
         call. = FALSE)
  }
  on_edges <- vertices$name %in% c(edges$from, edges$to)
  if (singletons) attributes$singletons <- vertices$name[!on_edges]
  vertices <- vertices[on_edges, ]
  vertices <- vertices[order(vertices$name, method = "radix"), ]
  g <- igraph::graph_from_data_frame(edges, directed = FALSE, vertices = vertices)
  for (a in names(attributes)) g <- igraph::set_graph_attr(g, a, attributes[[a]])
  class(g) <- c("PCSF", "igraph")
  pcsf_timed(g, res)
}

# The graph attributes seconds (pcsf_seconds) and work: the engine's counted work (curnet.work:
# the shortest-path route taken, e.g. "dijkstra sources", "sssp near-far iterations").
pcsf_timed <- function(g, res) {
  g <- igraph::set_graph_attr(g, "seconds", pcsf_seconds(res))
  igraph::set_graph_attr(g, "work", vapply(res$work, as.numeric, numeric(1)))
}

# Where a call's time went, seconds: R before the engine (checks, the network's arrays),
# the engine's own split (setup, paths, host: see curnet.analyses.steiner_forest.Forest), the rest of the
# engine call (the hand-over both ways), R after it (the igraph result).
pcsf_seconds <- function(res) {
  engine <- vapply(res$seconds, as.numeric, numeric(1))
  now <- proc.time()[["elapsed"]]
  c(r_before = res$started - res$r_entry, engine, handover = res$returned - res$started - sum(engine),
    r_after = now - res$returned)
}
