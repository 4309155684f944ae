# cuRnet_pcsf / cuRnet_pcsf_rand / cuRnet_interactome: PCSF()'s result shape, the objective
# recomputed here, seeded noise, bad input; against the PCSF package where it is installed.

toy_edges <- function() {
  data.frame(from = c("A", "B", "C", "D", "B", "F", "G"),
             to   = c("B", "C", "D", "E", "F", "G", "H"),
             cost = c(0.5, 0.4, 0.3, 0.9, 0.2, 0.3, 0.4), stringsAsFactors = FALSE)
}
toy_prizes <- function() c(A = 2, D = 1.5, E = 0.2, H = 3)

# edge costs + w x components + lost prizes + mu x degree of Steiner vertices
recompute_objective <- function(forest, ppi, prizes, w = 2, b = 1, mu = 0.0005) {
  prizes <- prizes[!duplicated(names(prizes), fromLast = TRUE)]     # the last prize of a repeat
  prizes <- prizes[names(prizes) %in% igraph::V(ppi)$name]
  el <- igraph::as_edgelist(forest)
  ids <- igraph::get.edge.ids(ppi, as.vector(t(el)))
  kept <- c(igraph::V(forest)$name, igraph::graph_attr(forest, "singletons"))
  steiner <- setdiff(kept, names(prizes))
  sum(igraph::E(ppi)$weight[ids]) +
    w * (igraph::components(forest)$no + length(igraph::graph_attr(forest, "singletons"))) +
    b * sum(prizes[!names(prizes) %in% kept]) + mu * sum(igraph::degree(ppi, steiner))
}

test_that("cuRnet_interactome builds PCSF's network: repeated pairs summed, loops dropped", {
  df <- rbind(toy_edges(), data.frame(from = c("B", "C"), to = c("A", "C"), cost = c(0.1, 1)))
  g <- cuRnet_interactome(df)
  expect_false(igraph::is_directed(g))
  expect_equal(igraph::ecount(g), 7)
  expect_equal(igraph::E(g)$weight[igraph::get.edge.ids(g, c("A", "B"))], 0.6)
  expect_equal(igraph::V(g)$name, unique(c(df$from, df$to)))
  expect_error(cuRnet_interactome(df[, 1:2]), "three columns")
  expect_error(cuRnet_interactome(transform(df, cost = -cost)),
               "row 1 \\(A - B\\) has cost -0.5: costs must be numbers >= 0")
  expect_error(cuRnet_interactome(transform(df, cost = as.character(cost))), "numeric")
  expect_error(cuRnet_interactome(transform(df, from = NA)), "missing names")
})

test_that("cuRnet_pcsf returns PCSF()'s object with the forest's objective", {
  skip_if_no_engine()
  ppi <- cuRnet_interactome(toy_edges())
  expect_message(f <- cuRnet_pcsf(ppi, toy_prizes(), backend = "cpu"), "4 of 4 terminals")
  expect_s3_class(f, c("PCSF", "igraph"))
  expect_equal(igraph::ecount(f), igraph::vcount(f) - igraph::components(f)$no)   # a forest
  expect_setequal(igraph::V(f)$type[igraph::V(f)$name %in% names(toy_prizes())], "Terminal")
  expect_true(all(igraph::V(f)$type[!igraph::V(f)$name %in% names(toy_prizes())] == "Steiner"))
  expect_equal(igraph::V(f)$prize[igraph::V(f)$name == "A"], 2)
  expect_equal(igraph::graph_attr(f, "objective"), recompute_objective(f, ppi, toy_prizes()))
})

test_that("cuRnet_pcsf converts the interactome as every cuRnet function does, once", {
  skip_if_no_engine()
  ppi <- cuRnet_interactome(toy_edges())
  count <- new.env()
  count$n <- 0L
  trace("engine_graph", function() count$n <- count$n + 1L, print = FALSE, where = asNamespace("cuRnet"))
  on.exit(untrace("engine_graph", where = asNamespace("cuRnet")))
  first <- suppressMessages(cuRnet_pcsf(ppi, toy_prizes(), backend = "cpu"))
  expect_equal(count$n, 1L)                                 # R's igraph conversion, igraph_engine_graph()
  again <- suppressMessages(cuRnet_pcsf_rand(ppi, toy_prizes(), n = 2, r = 0, seed = 1, backend = "cpu"))
  d <- cuRnet_distances(ppi, "A", "H", backend = "cpu")     # the costs as weights: the same graph
  expect_equal(count$n, 1L)                                 # kept with ppi, shared
  expect_equal(unname(d[1, 1]), 0.5 + 0.2 + 0.3 + 0.4)      # A - B - F - G - H
  expect_setequal(igraph::V(again)$name, igraph::V(first)$name)
  # another interactome's names are its own: no answer from a stale graph
  renamed <- igraph::set_vertex_attr(ppi, "name", value = tolower(igraph::V(ppi)$name))
  lower <- suppressMessages(cuRnet_pcsf(renamed, stats::setNames(toy_prizes(), tolower(names(toy_prizes()))),
                                        backend = "cpu"))
  expect_setequal(igraph::V(lower)$name, tolower(igraph::V(first)$name))
  objective <- igraph::graph_attr(first, "objective")                # not NULL or empty on both sides
  expect_true(is.numeric(objective) && length(objective) == 1 && is.finite(objective))
  expect_equal(igraph::graph_attr(lower, "objective"), igraph::graph_attr(first, "objective"))
})

test_that("unmatched terminals are reported; too few matched is an error", {
  skip_if_no_engine()
  ppi <- cuRnet_interactome(toy_edges())
  expect_message(cuRnet_pcsf(ppi, c(toy_prizes(), ZZ = 1), backend = "cpu"), "4 of 5 terminals .* not found: 'ZZ'")
  many <- setNames(rep(1, 40), paste0("X", 1:40))
  expect_error(suppressMessages(cuRnet_pcsf(ppi, c(A = 2, many), backend = "cpu")), "only 1 of 41")
})

test_that("bad input is refused with a clear error", {
  skip_if_no_engine()
  ppi <- cuRnet_interactome(toy_edges())
  expect_error(cuRnet_pcsf(toy_edges(), toy_prizes()), "igraph object")
  expect_error(cuRnet_pcsf(igraph::as.directed(ppi), toy_prizes()), "undirected")
  expect_error(cuRnet_pcsf(igraph::delete_vertex_attr(ppi, "name"), toy_prizes()), "no vertex names")
  expect_error(cuRnet_pcsf(igraph::delete_edge_attr(ppi, "weight"), toy_prizes()), "no edge costs")
  expect_error(cuRnet_pcsf(ppi, unname(toy_prizes())), "named numeric")
  expect_error(suppressMessages(cuRnet_pcsf(ppi, c(A = NA, D = 1), backend = "cpu")), "prize of terminal 'A' is NA")
  expect_error(suppressMessages(cuRnet_pcsf(ppi, c(A = -1, D = 1), backend = "cpu")), "positive")
  expect_warning(suppressMessages(cuRnet_pcsf(ppi, c(A = 1, A = 2, H = 3), backend = "cpu")), "repeated: 'A'")
  expect_error(cuRnet_pcsf_rand(ppi, toy_prizes(), n = 0), "`n` must be one whole number >= 1, not 0")
})

test_that("cuRnet_pcsf_rand: seeded runs repeat; without noise, n copies of the forest", {
  skip_if_no_engine()
  ppi <- cuRnet_interactome(toy_edges())
  f <- suppressMessages(cuRnet_pcsf(ppi, toy_prizes(), backend = "cpu"))
  r0 <- suppressMessages(cuRnet_pcsf_rand(ppi, toy_prizes(), n = 3, r = 0, backend = "cpu"))
  expect_s3_class(r0, c("PCSF", "igraph"))
  expect_setequal(igraph::V(r0)$name, igraph::V(f)$name)
  expect_true(all(igraph::V(r0)$prize == 3) && all(igraph::E(r0)$weight == 3))
  set.seed(5); a <- suppressMessages(cuRnet_pcsf_rand(ppi, toy_prizes(), n = 4, r = 1, backend = "cpu"))
  set.seed(5); b <- suppressMessages(cuRnet_pcsf_rand(ppi, toy_prizes(), n = 4, r = 1, backend = "cpu"))
  expect_identical(igraph::as_data_frame(a, "both"), igraph::as_data_frame(b, "both"))
  expect_length(igraph::graph_attr(a, "objectives"), 4)
})

test_that("on STRING with the Tgfb prizes: PCSF()'s forest with improve = FALSE, a better one by default", {
  skip_if_no_engine()
  skip_if_not_installed("PCSF")
  env <- new.env()
  utils::data("STRING", "Tgfb_phospho", package = "PCSF", envir = env)
  ppi <- cuRnet_interactome(env$STRING)
  f <- suppressWarnings(suppressMessages(cuRnet_pcsf(ppi, env$Tgfb_phospho, improve = FALSE, backend = "cpu")))
  # the package is not a declared dependency (not on CRAN): reached by name
  pkg <- function(f) getExportedValue("PCSF", f)
  p <- utils::capture.output(ref <- pkg("PCSF")(pkg("construct_interactome")(env$STRING), env$Tgfb_phospho))
  expect_identical(igraph::V(f)$name, igraph::V(ref)$name)
  expect_identical(igraph::V(f)$type, igraph::V(ref)$type)
  expect_equal(igraph::V(f)$prize, igraph::V(ref)$prize)
  key <- function(g) sort(apply(igraph::as_edgelist(g), 1, function(e) paste(sort(e), collapse = "|")))
  expect_identical(key(f), key(ref))
  better <- suppressWarnings(suppressMessages(cuRnet_pcsf(ppi, env$Tgfb_phospho, backend = "cpu")))
  expect_lt(igraph::graph_attr(better, "objective"), igraph::graph_attr(f, "objective"))
  expect_equal(igraph::graph_attr(better, "objective"), recompute_objective(better, ppi, env$Tgfb_phospho))
  expect_equal(igraph::graph_attr(f, "objective"), recompute_objective(f, ppi, env$Tgfb_phospho))
})

test_that("precision = 'single' gives a forest costed in double", {
  skip_if_no_engine()
  ppi <- cuRnet_interactome(toy_edges())
  f <- suppressMessages(cuRnet_pcsf(ppi, toy_prizes(), precision = "single", backend = "cpu"))
  expect_equal(igraph::graph_attr(f, "objective"), recompute_objective(f, ppi, toy_prizes()))
  expect_error(cuRnet_pcsf(ppi, toy_prizes(), precision = "half"), "should be one of")
})

test_that("dummies restrict the root edges; NULL or NA mean the terminals", {
  skip_if_no_engine()
  ppi <- cuRnet_interactome(toy_edges())
  all_t <- suppressMessages(cuRnet_pcsf(ppi, toy_prizes(), backend = "cpu"))
  for (d in list(NULL, NA)) {
    same <- suppressMessages(cuRnet_pcsf(ppi, toy_prizes(), dummies = d, backend = "cpu"))
    expect_equal(igraph::graph_attr(same, "objective"), igraph::graph_attr(all_t, "objective"))
  }
  one <- suppressMessages(cuRnet_pcsf(ppi, toy_prizes(), dummies = "A", backend = "cpu"))
  expect_equal(igraph::components(one)$no, 1)
  expect_error(suppressMessages(cuRnet_pcsf(ppi, toy_prizes(), dummies = "nope", backend = "cpu")),
               "none of the dummies is in the network")
})

test_that("every number is checked for NA, length and range before any work, as PCSF() refuses them", {
  # no engine needed: the checks come first (PCSF() errors on these too)
  ppi <- cuRnet_interactome(toy_edges())
  tg <- toy_prizes()
  expect_error(cuRnet_pcsf(ppi, tg, mu = NA), "`mu` must be one number >= 0, not NA")
  expect_error(cuRnet_pcsf(ppi, tg, mu = -1), "`mu` must be one number >= 0, not -1")
  expect_error(cuRnet_pcsf(ppi, tg, w = NA), "`w` must be one positive number, not NA")
  expect_error(cuRnet_pcsf(ppi, tg, w = c(1, 2)), "`w` must be one positive number, not 2 values \\(1, 2\\)")
  expect_error(cuRnet_pcsf(ppi, tg, w = "2"), "`w` must be one positive number, not \"2\"")
  expect_error(cuRnet_pcsf(ppi, tg, b = 0), "`b` must be one positive number, not 0")
  expect_error(cuRnet_pcsf(ppi, tg, b = Inf), "`b` must be one positive number, not Inf")
  expect_error(cuRnet_pcsf(ppi, tg, improve = NA), "`improve` must be TRUE or FALSE, not NA")
  expect_error(cuRnet_pcsf(ppi, tg, dummies = c("A", NA)), "`dummies` must name vertices")
  expect_error(cuRnet_pcsf(ppi, c(EGFR = NA, A = 1)), "prize of terminal 'EGFR' is NA")
  expect_error(cuRnet_pcsf_rand(ppi, tg, r = NA, seed = NA), "`r` must be one number >= 0, not NA")
  expect_error(cuRnet_pcsf_rand(ppi, tg, seed = NA), "`seed` must be one whole number >= 0, not NA")
  expect_error(cuRnet_pcsf_rand(ppi, tg, seed = 1.5), "`seed` must be one whole number >= 0, not 1.5")
  expect_error(cuRnet_pcsf_rand(ppi, tg, n = NA), "`n` must be one whole number >= 1, not NA")
  expect_error(cuRnet_pcsf_rand(ppi, tg, n = 2:3), "`n` must be one whole number >= 1, not 2 values")
  bad <- ppi
  igraph::E(bad)$weight[3] <- NA
  ends <- igraph::ends(bad, 3)                                                        # 1-based
  expect_error(cuRnet_pcsf(bad, tg), sprintf("edge 3 \\(%s - %s\\) has cost NA", ends[1], ends[2]))
  loop <- igraph::add_edges(ppi, c("B", "B"), weight = 1)
  expect_error(cuRnet_pcsf(loop, tg), "a self-loop \\(edge 8, on 'B'\\): build it with cuRnet_interactome\\(\\)")
})

test_that("the objective's parts: edges, trees (single-terminal ones too), lost prizes, hub penalties", {
  skip_if_no_engine()
  ppi <- cuRnet_interactome(toy_edges())
  tg <- c(toy_prizes(), C = 2.5)
  f <- suppressMessages(cuRnet_pcsf(ppi, tg, w = 1, mu = 0.05, backend = "cpu"))
  t <- igraph::graph_attr(f, "objective_terms")
  expect_named(t, c("edges", "trees", "lost_prizes", "hub_penalties"))
  expect_equal(sum(t), igraph::graph_attr(f, "objective"))
  expect_equal(unname(t["edges"]), sum(igraph::E(f)$weight))
  expect_equal(unname(t["trees"]), 1 * igraph::graph_attr(f, "trees"))
  kept <- c(igraph::V(f)$name, igraph::graph_attr(f, "singletons"))
  expect_equal(unname(t["lost_prizes"]), sum(tg[!names(tg) %in% kept]))
  steiner <- igraph::V(f)$name[igraph::V(f)$type == "Steiner"]
  expect_equal(unname(t["hub_penalties"]), 0.05 * sum(igraph::degree(ppi, steiner)))
  expect_equal(igraph::graph_attr(f, "objective"), recompute_objective(f, ppi, tg, w = 1, mu = 0.05))
})

test_that("the engine's warnings are R warnings: suppressWarnings() silences them, expect_warning() catches them", {
  skip_if_no_engine()
  ppi <- cuRnet_interactome(toy_edges())
  w <- expect_warning(suppressMessages(cuRnet_pcsf(ppi, toy_prizes(), dummies = c("A", "ZZ"), backend = "cpu")),
                      "1 of 2 dummies are not in the network .* 'ZZ'", class = "cuRnet_warning")
  out <- NULL
  expect_silent(out <- suppressMessages(suppressWarnings(
    cuRnet_pcsf(ppi, toy_prizes(), dummies = c("A", "ZZ"), backend = "cpu"))))
  one <- suppressMessages(cuRnet_pcsf(ppi, toy_prizes(), dummies = "A", backend = "cpu"))
  expect_equal(igraph::graph_attr(out, "objective"), igraph::graph_attr(one, "objective"))
})

test_that("what PCSF() accepts: zero costs, dummies outside the network, one terminal; the same forest", {
  skip_if_no_engine()
  skip_if_not_installed("PCSF")
  pkg <- function(f) getExportedValue("PCSF", f)
  # (PCSF() tests is.na(dummies) on a vector: R's warning about it is the package's)
  solve <- function(...) { utils::capture.output(g <- suppressWarnings(pkg("PCSF")(...))); g }
  key <- function(g) sort(apply(igraph::as_edgelist(g), 1, function(e) paste(sort(e), collapse = "|")))
  zero <- transform(toy_edges(), cost = c(0, 0.4, 0, 0.9, 0.2, 0, 0.4))
  for (case in list(list(zero, toy_prizes(), NULL), list(toy_edges(), toy_prizes(), c("A", "H", "nope")),
                    list(zero, c(H = 3, A = 2), NULL))) {
    ppi_pkg <- pkg("construct_interactome")(case[[1]])
    ppi <- cuRnet_interactome(case[[1]])
    ref <- if (is.null(case[[3]])) solve(ppi_pkg, case[[2]], mu = 0.05) else
      solve(ppi_pkg, case[[2]], mu = 0.05, dummies = case[[3]])
    got <- suppressWarnings(suppressMessages(cuRnet_pcsf(ppi, case[[2]], mu = 0.05, dummies = case[[3]],
                                                         improve = FALSE, backend = "cpu")))
    expect_identical(key(got), key(ref))
    expect_identical(sort(igraph::V(got)$name), sort(igraph::V(ref)$name))
  }
  # one terminal: PCSF() returns an empty graph (its tree is the terminal alone), as cuRnet does
  ref <- solve(pkg("construct_interactome")(toy_edges()), c(A = 3))
  got <- suppressMessages(cuRnet_pcsf(cuRnet_interactome(toy_edges()), c(A = 3), backend = "cpu"))
  expect_s3_class(got, c("PCSF", "igraph"))
  expect_identical(c(igraph::vcount(got), igraph::ecount(got)), c(igraph::vcount(ref), igraph::ecount(ref)))
  expect_identical(igraph::graph_attr(got, "singletons"), "A")
  expect_error(suppressMessages(cuRnet_pcsf(cuRnet_interactome(toy_edges()), c(A = 1), backend = "cpu")),
               "no sub-network")
})

test_that("improve = FALSE is PCSF()'s forest on random networks without ties; improve = TRUE never worse", {
  skip_if_no_engine()
  skip_if_not_installed("PCSF")
  pkg <- function(f) getExportedValue("PCSF", f)
  set.seed(44)
  same <- 0
  tried <- 0
  for (i in 1:12) {
    g <- igraph::sample_gnp(30, 0.12)
    df <- data.frame(igraph::as_edgelist(g), cost = round(stats::runif(igraph::ecount(g), 0.1, 1), 6))
    df[] <- lapply(df, function(x) if (is.numeric(x) && all(x == round(x))) paste0("v", x) else x)
    tg <- stats::setNames(round(stats::runif(8, 0.2, 2.5), 6), paste0("v", sample(igraph::vcount(g), 8)))
    tg <- tg[names(tg) %in% c(df[[1]], df[[2]])]
    ref <- tryCatch({
      utils::capture.output(r <- pkg("PCSF")(pkg("construct_interactome")(df), tg, w = 1.5, mu = 0.05))
      r
    }, error = function(e) NULL)
    if (is.null(ref) || length(tg) < 3) next
    ppi <- cuRnet_interactome(df)
    got <- suppressMessages(cuRnet_pcsf(ppi, tg, w = 1.5, mu = 0.05, improve = FALSE, backend = "cpu"))
    better <- suppressMessages(cuRnet_pcsf(ppi, tg, w = 1.5, mu = 0.05, backend = "cpu"))
    expect_lte(igraph::graph_attr(better, "objective"), igraph::graph_attr(got, "objective") + 1e-12)
    key <- function(g) sort(apply(igraph::as_edgelist(g), 1, function(e) paste(sort(e), collapse = "|")))
    same <- same + identical(key(got), key(ref))
    tried <- tried + 1
  }
  expect_gte(tried, 10)
  expect_equal(same, tried)
})
