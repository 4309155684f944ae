#' Build a graph that stays in the engine
#'
#' The graph is built once in the engine (on the GPU when there is one) and
#' reused by every \code{cuRnet_*} call on it.
#'
#' \describe{
#'   \item{data frame}{Columns 1 and 2 are the edges' endpoints: character,
#'     factor or numbers, all taken as vertex names (as
#'     \code{igraph::graph_from_data_frame} does), vertices numbered in order of
#'     first appearance. Names are case-sensitive (\code{"TP53"} and
#'     \code{"tp53"} are two vertices); unused factor levels are not vertices
#'     (list them in \code{vertices} to add them); a missing endpoint
#'     (\code{NA}) is an error. The weights: the first column with a
#'     weight-like name (\code{weight}, \code{weights}, \code{w},
#'     \code{distance}, \code{dist}, \code{length}, \code{cost}; case aside),
#'     as igraph reads \code{weight}; else the third column when it is numeric,
#'     whatever its name, as cuRnet has read \code{from to score} since 2017
#'     (a message names the column: a confidence \code{score} or an evidence
#'     count then is a length). \code{weights = NA} counts hops,
#'     \code{weights = "col"} picks another column. A weight column must be
#'     numeric (text or \code{TRUE}/\code{FALSE} is an error).
#'     Directed unless \code{directed = FALSE}, as in cuRnet.}
#'   \item{igraph object}{Keeps its own directedness, vertex order, names and
#'     \code{weight} edge attribute. Note: \code{igraph::distances()} defaults
#'     to \code{mode = "all"} (edges in either direction), cuRnet's functions
#'     follow the edges' directions; \code{\link{cuRnet_distances}} takes
#'     igraph's \code{mode}.}
#'   \item{file path}{Read by the engine (\code{curnet.read_graph}: CSV/TSV
#'     edge lists, Matrix Market, SNAP, DIMACS, METIS, Parquet, Arrow);
#'     \code{...} goes to the reader (e.g. \code{header = TRUE}).
#'     A header line is detected when a field of it is text over a column of
#'     numbers, or when both endpoint fields are column labels such as
#'     \code{gene1 gene2}, \code{source target} or \code{protein_a protein_b}
#'     that name no vertex elsewhere in the file (the reader then warns that
#'     it took the line as a header); any other first line of two names is an
#'     edge: give \code{header = TRUE} (or \code{FALSE}) to decide. Weights
#'     come from a column with a weight-like name, else from a numeric third
#'     column, as for a data frame (with the same message when that column
#'     has a name in a header).
#'     Ids in the file are vertex names, as in a data
#'     frame: a TSV line \code{7157 4193} makes vertices \code{"7157"} and
#'     \code{"4193"}, and \code{cuRnet_bfs(g, 7157)} starts from the first.
#'     Matrix Market, DIMACS and METIS files number their vertices 1..n and
#'     name none: the graph has no names and its vertices are 1-based indices,
#'     as in igraph (the file's vertex 3 is \code{3}; Python and the
#'     \code{curnet} command count the same vertices from 0, as SciPy).
#'     \code{ids = "index"} takes an edge list's numeric ids as the engine's
#'     0-based vertex numbers instead (no names; sources are then 1-based
#'     indices).}
#'   \item{two-column matrix}{igraph's edge-list matrix (\code{igraph::as_edgelist}):
#'     endpoints as vertex names, as in a data frame.}
#'   \item{Arrow Table or RecordBatch}{(with R's \pkg{arrow} package)
#'     endpoints in columns 1 and 2, taken as vertex names as in a data frame,
#'     weights as for a data frame (a weight-like name, else a numeric third
#'     column).}
#' }
#'
#' Undirected graphs reject negative weights (each such edge is a negative
#' cycle); directed graphs accept them for shortest paths.
#'
#' \code{precision = "single"} stores the weights (and computes the distances)
#' as 32-bit floats: half the memory, distances that agree with igraph's to
#' about 1e-6 relative (1e-12 or better in \code{"double"}, the default), and
#' on a GPU half the bytes for the engine's near-far shortest paths (which
#' both precisions take for non-negative weights). Predecessors may then pick
#' another of two paths whose lengths differ by less than that. Weights beyond
#' the single-precision range (about 3.4e38) are an error. Unweighted graphs
#' count hops, exactly, either way.
#'
#' @param x A data frame, an igraph object, a file path, an Arrow Table, or a
#'   \code{cuRnet_graph} (returned as is).
#' @param directed Whether edges are one-way. For igraph objects, defaults to
#'   the graph's own directedness.
#' @param weights Edge weights; \code{NA} means unweighted for every input.
#'   For data frames: \code{NULL} detects them as
#'   above, or a column name or a numeric vector.
#'   For igraph objects, as in igraph: \code{NULL} takes the \code{weight}
#'   attribute, or a numeric vector. For files: \code{NULL} detects them,
#'   \code{TRUE} requires them, or a column name. For Arrow tables:
#'   \code{NULL} detects them as for a data frame, or a column name.
#' @param vertices For data frames and files: all vertex names, in the order wanted
#'   (adds isolated vertices), or a data frame with the names in its first
#'   column (as igraph takes it); by default the endpoints in order of first appearance.
#' @param ... For files: the engine reader's options \code{format},
#'   \code{header}, \code{delimiter}, \code{comment}, \code{src}, \code{dst}
#'   (0-based column indices or names) and \code{num_vertices}. Any other
#'   argument (a misspelt \code{directd}, say) is an error, for every input.
#' @param precision \code{"double"} (default) or \code{"single"}: how the engine
#'   stores the weights, see Details. For a \code{cuRnet_graph}, a precision other
#'   than the graph's own is an error.
#' @param ids For files: \code{"names"} (default) takes every id in the file as a
#'   vertex name, as in a data frame; \code{"index"} takes numeric ids as the
#'   engine's 0-based vertex numbers (the graph has no names then, and numeric
#'   sources are 1-based indices).
#' @return A \code{cuRnet_graph}: print it to see vertices, edges,
#'   directedness, weights (and their precision) and backend.
#' @examples
#' if (cuRnet_available()) {
#'   edges <- data.frame(from = c("A", "A", "B", "C"), to = c("B", "C", "C", "D"),
#'                       weight = c(1, 4, 2, 1))
#'   g <- cuRnet_graph(edges)
#'   g
#'   cuRnet_graph(edges, precision = "single")
#'   cuRnet_bfs(g, c("A", "B"))
#' }
#' @export
cuRnet_graph <- function(x, directed = TRUE, ...) UseMethod("cuRnet_graph")

#' @rdname cuRnet_graph
#' @export
cuRnet_graph.cuRnet_graph <- function(x, directed = TRUE, ..., precision = NULL) {
  no_other_arguments(...)
  if (!missing(directed) && !identical(as.logical(directed), x$directed)) {
    stop(sprintf("this graph is %s; build it again from its edges for a %s one",
                 if (x$directed) "directed" else "undirected",
                 if (x$directed) "undirected" else "directed"), call. = FALSE)
  }
  if (!is.null(precision) && x$weighted && match_precision(precision) != x$precision) {
    stop(sprintf("this graph holds %s-precision weights; build it again with precision = \"%s\"",
                 x$precision, match_precision(precision)), call. = FALSE)
  }
  x
}

#' @rdname cuRnet_graph
#' @export
cuRnet_graph.data.frame <- function(x, directed = TRUE, ..., weights = NULL, vertices = NULL,
                                    precision = c("double", "single")) {
  no_other_arguments(...)
  precision <- match_precision(precision)
  if (ncol(x) < 2) stop("a data frame of edges needs two columns: from and to", call. = FALSE)
  from <- as_label(x[[1]])
  to <- as_label(x[[2]])
  if (is.data.frame(vertices)) vertices <- vertices[[1]]   # as igraph: names in the first column
  names <- if (is.null(vertices)) unique(c(from, to)) else as_label(vertices)
  names <- names[!is.na(names)]
  if (anyDuplicated(names)) {
    stop(sprintf("`vertices` names some vertices twice: %s", show_some(unique(names[duplicated(names)]))),
         call. = FALSE)
  }
  src <- match(from, names) - 1L
  dst <- match(to, names) - 1L
  if (!is.null(vertices)) {
    stray <- c(from[is.na(src) & !is.na(from)], to[is.na(dst) & !is.na(to)])
    if (length(stray)) {
      stop(sprintf("edge endpoint(s) not in `vertices`: %s", show_some(unique(stray))), call. = FALSE)
    }
  }
  missing_end <- which(is.na(from) | is.na(to))
  if (length(missing_end)) {
    stop(sprintf("missing value (NA) as an edge endpoint in row(s) %s: drop those edges (e.g. na.omit) first",
                 show_some(missing_end)), call. = FALSE)
  }
  column <- NULL
  if (is.null(weights)) {
    column <- default_weight_column(names(x), ncol(x) >= 3 && is.numeric(x[[3]]))
  } else if (is.character(weights) && length(weights) == 1) {
    if (!weights %in% names(x)) {
      stop(sprintf("no column '%s' in the data frame for the weights", weights), call. = FALSE)
    }
    column <- weights
  } else {
    weights <- igraph_weights(NULL, weights)
  }
  if (!is.null(column)) weights <- weight_column(x[[column]], column)
  engine_graph(src, dst, weights, directed, names, ids_are_names = TRUE, precision = precision)
}

#' @rdname cuRnet_graph
#' @export
cuRnet_graph.igraph <- function(x, directed = igraph::is_directed(x), ..., weights = NULL,
                                precision = c("double", "single")) {
  no_other_arguments(...)
  igraph_engine_graph(x, igraph_weights(x, weights), directed, match_precision(precision))
}

#' @rdname cuRnet_graph
#' @export
cuRnet_graph.character <- function(x, directed = TRUE, ..., weights = NULL, vertices = NULL,
                                   ids = c("names", "index"), precision = c("double", "single")) {
  ids <- match.arg(ids)
  precision <- match_precision(precision)
  options <- reader_options(...)
  if (length(x) != 1 || !file.exists(x)) stop("not a file: ", x[1], call. = FALSE)
  # igraph's convention: NA means unweighted (the reader's False); NULL detects them
  if (no_weights(weights)) weights <- FALSE
  if (is.data.frame(vertices)) vertices <- vertices[[1]]   # as igraph: names in the first column
  if (!is.null(vertices)) {
    if (ids != "names") stop("`vertices` names the vertices: it needs ids = \"names\"", call. = FALSE)
    options$names <- as.list(as_label(vertices))
  }
  graphs <- engine_module("graphs")
  read <- engine_call(do.call(graphs$read_graph_warned, c(list(normalizePath(x), directed = directed,
                                                          weights = weights, ids = ids,
                                                          dtype = engine_dtype(precision)), options)))
  py <- reticulate::py_get_item(read, 0L)
  for (said in unlist(reticulate::py_to_r(reticulate::py_get_item(read, 1L)))) {
    # the reader's note on a third column read as the weights (WeightColumnNote), in R's words
    third <- regmatches(said, regexec("^column (['\"])(.*)\\1 read as the weights", said))[[1]]
    if (length(third)) weight_column_message(third[3]) else warning(said, call. = FALSE)
  }
  names <- reticulate::py_to_r(graphs$names(py))
  # Matrix Market, DIMACS and METIS name no vertex: numbers are 1-based indices, as in igraph
  wrap_graph(py, names, ids_are_names = ids == "names" && !is.null(names))
}

#' @rdname cuRnet_graph
#' @export
cuRnet_graph.ArrowTabular <- function(x, directed = TRUE, ..., weights = NULL,
                                      precision = c("double", "single")) {
  no_other_arguments(...)
  precision <- match_precision(precision)
  if (is.null(weights)) {
    weights <- default_weight_column(names(x), ncol(x) >= 3 && arrow_type_is_numeric(x$schema[[3]]$type))
  } else if (no_weights(weights)) {
    weights <- NULL
  } else if (!(is.character(weights) && length(weights) == 1 && weights %in% names(x))) {
    stop("for an Arrow table, `weights` is NULL (detected as for a data frame), NA (none) or ",
         "the name of a column", call. = FALSE)
  }
  graphs <- engine_module("graphs")
  py <- engine_call(graphs$graph_from_table(reticulate::r_to_py(x), directed, weights,
                                            dtype = engine_dtype(precision), id_names = TRUE))
  wrap_graph(py, reticulate::py_to_r(graphs$names(py)), ids_are_names = TRUE)
}

#' @rdname cuRnet_graph
#' @export
cuRnet_graph.matrix <- function(x, directed = TRUE, ...) {
  # igraph's edge-list matrix (as_edgelist, graph_from_edgelist): two columns of names or numbers
  if (ncol(x) != 2) {
    stop(sprintf("an edge-list matrix has two columns (from, to), not %d; for weights, use a data frame",
                 ncol(x)), call. = FALSE)
  }
  cuRnet_graph(data.frame(from = x[, 1], to = x[, 2], stringsAsFactors = FALSE), directed, ...)
}

#' @export
cuRnet_graph.default <- function(x, directed = TRUE, ...) {
  stop("cuRnet_graph() takes a data frame, an edge-list matrix, an igraph object, a file path or an Arrow Table, not ",
       class(x)[1], call. = FALSE)
}

# The arguments a method has no use for: an error that names them (a misspelt `directd = FALSE`
# or `weight = NA` must not be dropped quietly), with the nearest argument cuRnet_graph knows.
no_other_arguments <- function(..., known = graph_arguments) {
  extra <- names(list(...))
  if (is.null(extra) && ...length()) extra <- rep("", ...length())
  if (!length(extra)) return(invisible())
  near <- vapply(extra, function(a) {
    m <- if (nzchar(a)) agrep(a, known, max.distance = 2, value = TRUE) else character()
    if (length(m)) sprintf(" (did you mean `%s`?)", m[1]) else ""
  }, "")
  shown <- ifelse(nzchar(extra), sprintf("`%s`", extra), "an unnamed argument")
  stop(sprintf("cuRnet_graph() does not take %s", paste0(shown, near, collapse = ", ")),
       call. = FALSE)
}

graph_arguments <- c("directed", "weights", "vertices", "precision", "ids", "format", "src",
                     "dst", "header", "delimiter", "comment", "num_vertices")

# `...` of a file: the engine reader's own options (curnet.read_graph), checked here so that a
# typo is named in R's words rather than as a Python TypeError.
reader_options <- function(...) {
  options <- list(...)
  keys <- names(options)
  if (is.null(keys)) keys <- rep("", length(options))
  bad <- !keys %in% c("format", "src", "dst", "header", "delimiter", "comment", "num_vertices")
  if (any(bad)) do.call(no_other_arguments, options[bad])
  options
}

# The column names taken as weights without being asked: the engine's list (curnet.io.WEIGHT_NAMES,
# kept in curnet.columns, which the graph adapters load anyway, not the readers' package), so that
# a data frame, an Arrow table and a file agree.
weight_names <- function() {
  graphs <- engine_module("graphs")   # first: py_to_r starts Python before it reads its argument
  unlist(reticulate::py_to_r(graphs$WEIGHT_NAMES))
}

weight_like_column <- function(columns) {
  hit <- which(tolower(trimws(columns)) %in% weight_names())
  if (length(hit)) columns[hit[1]]
}

# The weight column when the caller gave no `weights`: a weight-like name, else the third column
# when it is numeric, whatever its name, as cuRnet has read `from to score` since 2017 (the same
# rule as the engine's reader, curnet.io.weights); a column taken by its place is named.
default_weight_column <- function(columns, third_is_numeric) {
  column <- weight_like_column(columns)
  if (is.null(column) && length(columns) >= 3 && third_is_numeric) {
    column <- columns[3]
    weight_column_message(column)
  }
  column
}

weight_column_message <- function(column) {
  message(sprintf(paste0("column '%s' read as the weights (the third column, as cuRnet reads an ",
                         "edge list); weights = NA for hops, weights = \"name\" for another column"),
                  column))
}

arrow_type_is_numeric <- function(type) {
  grepl("^(u?int(8|16|32|64)|halffloat|float|double)$", type$ToString())
}

# The one way graphs from R reach the engine: 0-based ids and weights as Arrow arrays.
engine_graph <- function(src, dst, weights, directed, names, n = length(names), ids_are_names,
                         precision = "double") {
  if (!is.null(weights)) {
    if (!is.numeric(weights)) {
      stop(sprintf("weights must be numeric, not %s (give weights = NA for an unweighted graph)",
                   class(weights)[1]), call. = FALSE)
    }
    if (length(weights) != length(src)) {
      stop(sprintf("%d weights for %d edges", length(weights), length(src)), call. = FALSE)
    }
    weights <- as_numbers(as.double(weights))
  }
  py <- engine_call(engine_module("graphs")$graph_from_arrow(
    as_numbers(as.integer(src)), as_numbers(as.integer(dst)), weights, directed, n, dtype = engine_dtype(precision)))
  wrap_graph(py, names, ids_are_names)
}

wrap_graph <- function(py, names, ids_are_names) {
  s <- reticulate::py_to_r(engine_module("graphs")$summary(py))
  structure(list(py = py, names = names, n = s$n, m = s$m, directed = s$directed,
                 weighted = s$weighted, precision = if (s$weighted) s$precision else NA_character_,
                 backend = s$backend, ids_are_names = ids_are_names),
            class = "cuRnet_graph")
}

# "double" or "single" (the weights' precision in the engine).
match_precision <- function(precision) match.arg(precision, c("double", "single"))

# R's precision as the engine's float width, its `dtype` (R has no float32 type, so R keeps
# its own words).
engine_dtype <- function(precision) if (precision == "double") "float64" else "float32"

# A data-frame column meant as weights: numbers, or an error that says why not
# (a column of text such as c("0.5", "x") is never dropped quietly).
weight_column <- function(w, column) {
  if (is.numeric(w)) return(w)
  why <- if (is.logical(w)) "TRUE/FALSE values" else {
    text <- as.character(w)
    bad <- text[!is.na(text) & is.na(suppressWarnings(as.numeric(text)))]
    if (length(bad)) sprintf("text such as %s", show_some(unique(bad), 3)) else "numbers stored as text"
  }
  stop(sprintf(paste0("weights must be numeric: column '%s' holds %s; convert it with ",
                      "as.numeric(), pick another column with weights = \"name\", or give ",
                      "weights = NA for an unweighted graph"), column, why), call. = FALSE)
}

# The edge attribute `weight` (NULL if none). Not igraph::E(g)$weight: on a graph with vertex
# names, E(g) (and edge_attr(g, name), whose index defaults to it) pastes a "from|to" name for
# every edge first, 0.15-0.6 s on STRING's 175,821 edges; edge_attr(g) hands the attribute
# list over as it is.
igraph_edge_weights <- function(g) igraph::edge_attr(g)[["weight"]]

# igraph's `weights = NA`: no weights, count hops (the one place R reads it).
no_weights <- function(weights) length(weights) == 1 && is.na(weights)

# igraph's convention: NULL takes the weight attribute, NA means unweighted.
igraph_weights <- function(g, weights) {
  if (is.null(weights)) return(if (!is.null(g)) igraph_edge_weights(g))
  if (no_weights(weights)) return(NULL)
  weights
}

# The front door of the functions that take igraph's `weights` (paths, measures, betweenness,
# distances): the engine graph, and in its `use_weights` whether the call uses its weights,
# decided once here and passed down with the graph (no layer below reads `weights` again).
# Each branch reads `weights` once. igraph objects keep their edge order (edge ids), directions
# and weights (igraph_weights(); `refuse_negative`: the caller's name, whose weights must not be
# negative), so their engine graph holds weights only where the call uses them; anything else
# goes through cuRnet_graph() with its own weights, which `weights = NA` leaves unused.
weighted_graph <- function(graph, weights, refuse_negative = NULL) {
  if (igraph::is_igraph(graph)) {
    w <- igraph_weights(graph, weights)
    if (!is.null(refuse_negative)) negative_weights_refused(w, refuse_negative)
    g <- igraph_engine_graph(graph, w)
    g$use_weights <- g$weighted
  } else {
    if (is.numeric(weights)) {
      stop("weights as a vector need an igraph object; build the cuRnet graph with them", call. = FALSE)
    }
    g <- check_graph(graph)
    g$use_weights <- g$weighted && !no_weights(weights)
  }
  g
}

# Vertex labels as character; whole numbers without exponents (1e5 is "100000").
as_label <- function(x) {
  if (is.factor(x)) return(as.character(x))
  if (is.numeric(x) && !is.integer(x) && all(x == trunc(x), na.rm = TRUE)) {
    out <- sprintf("%.0f", x)
    out[is.na(x)] <- NA
    return(out)
  }
  as.character(x)
}

# "not in the graph", with the names that differ only in case or surrounding spaces
# (read.csv keeps the space after a comma: " MDM2").
unknown_names_message <- function(graph, missing, what = "source") {
  loose <- function(v) tolower(trimws(v))
  near <- graph$names[loose(graph$names) %in% loose(missing)]
  paste0(what, " vertex name(s) not in the graph: ", show_some(missing),
         if (length(near)) sprintf(" (names are matched exactly, in case and spaces; the graph has %s)",
                                   show_some(near)))
}

show_some <- function(x, n = 5) {
  more <- if (length(x) > n) sprintf(" and %d more", length(x) - n) else ""
  paste0(paste0("'", utils::head(x, n), "'", collapse = ", "), more)
}

check_graph <- function(graph) {
  graph <- cuRnet_graph(graph)
  if (reticulate::py_is_null_xptr(graph$py)) {
    stop("this cuRnet graph belongs to an earlier R session (saved and reloaded?); ",
         "build it again with cuRnet_graph()", call. = FALSE)
  }
  graph
}

#' @export
print.cuRnet_graph <- function(x, ...) {
  fmt <- function(v) format(v, big.mark = ",", scientific = FALSE)
  cat(sprintf("cuRnet graph: %s vertices, %s edges, %s, %s\n", fmt(x$n), fmt(x$m),
              if (x$directed) "directed" else "undirected",
              if (x$weighted) sprintf("weighted (%s precision)", x$precision) else "unweighted"))
  if (length(x$names)) cat("vertices:", show_some(x$names, 4), "\n")
  cat("backend:", x$backend, "\n")
  invisible(x)
}
