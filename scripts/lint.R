# lintr over the R package and the project's R scripts (settings: .lintr); fails on any lint.
# `make lint-r` (part of `make lint` and `make test`).
#
# .lintr keeps lintr's default linters, fitted to the package's style (a DCF file holds no
# comments, so the reasons are here):
# - names: the original package's cuRnet_ prefix (cuRnet_bfs) and the argument names of the
#   functions cuRnet stands in for (igraph's edge.betweenness, WGCNA's datExpr, networkType)
#   are the API, so object_name_linter is off;
# - `x <- if (cond) value else { ... }` picks a value inline, so brace_linter (which wants
#   both branches braced alike) is off;
# - argument checking makes the front doors long, so cyclocomp_linter is off;
# - lines up to 120 characters, as the Python code (ruff); names up to 40.
files <- c(list.files("R", "\\.R$", full.names = TRUE),
           list.files("tests", "\\.R$", full.names = TRUE, recursive = TRUE),
           list.files("vignettes", "\\.Rmd$", full.names = TRUE),
           list.files("scripts", "\\.R$", full.names = TRUE),
           list.files("bench", "\\.R$", full.names = TRUE))
# lint_package gives the linters the package's namespace (functions defined in other files)
lints <- lintr::lint_package(".", exclusions = as.list(setdiff(
  list.files(".", "\\.(R|Rmd)$", recursive = TRUE, all.files = FALSE), files)))
if (length(lints)) {
  print(lints)
  cat(sprintf("lintr: %d lint(s) in %d file(s)\n", length(lints), length(unique(vapply(lints, `[[`, "", "filename")))))
  quit(status = 1)
}
cat(sprintf("lintr: %d files, no lints\n", length(files)))
