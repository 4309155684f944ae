# lintr over the R package and the project's R scripts (settings: .lintr); fails on any lint.
# `make lint-r` (part of `make lint` and `make test`), after the package is installed from
# this tree (object_usage_linter reads the installed namespace).
#
# .lintr keeps lintr's default linters, fitted to the package's style (a DCF file holds no
# comments, so the reasons are here):
# - names: the original package's cuRnet_ prefix (cuRnet_bfs) and the argument names of the
#   functions cuRnet stands in for (igraph's edge.betweenness, WGCNA's datExpr, networkType)
#   are the API, so object_name_linter is off;
# - `x <- if (cond) value else { ... }` picks a value inline, so brace_linter (which wants
#   both branches braced alike) is off;
# - argument checking makes the front doors long, so cyclocomp_linter is off;
# - lines up to 120 characters, as the Python code (ruff); names up to 40;
# - short blocks on one line (`{ setwd(old); unlink(dir) }`, a timing loop's steps) are the
#   code's idiom, so semicolon_linter allows compound semicolons (not trailing ones).
# The tests, vignettes and scripts run with testthat's functions and the package attached,
# which object_usage_linter cannot see outside R/: it is off for them.
package_code <- list.files("R", "\\.R$", full.names = TRUE)
other_code <- c(list.files("tests", "\\.R$", full.names = TRUE, recursive = TRUE),
                list.files("vignettes", "\\.Rmd$", full.names = TRUE),
                list.files("scripts", "\\.R$", full.names = TRUE),
                list.files("bench", "\\.R$", full.names = TRUE))
# lint_package: the linters see the package's namespace (functions defined in other files)
not_package <- setdiff(list.files(".", "\\.(R|Rmd)$", recursive = TRUE), package_code)
lints <- c(lintr::lint_package(".", exclusions = as.list(not_package)),
           unlist(lapply(other_code, function(f) {
             lintr::lint(f, linters = lintr::linters_with_defaults(
               line_length_linter = lintr::line_length_linter(120),
               object_length_linter = lintr::object_length_linter(40),
               semicolon_linter = lintr::semicolon_linter(allow_compound = TRUE),
               object_name_linter = NULL, brace_linter = NULL, cyclocomp_linter = NULL,
               object_usage_linter = NULL), parse_settings = FALSE)
           }), recursive = FALSE))
if (length(lints)) {
  print(structure(lints, class = "lints"))
  files <- unique(vapply(lints, `[[`, "", "filename"))
  cat(sprintf("lintr: %d lint(s) in %d file(s)\n", length(lints), length(files)))
  quit(status = 1)
}
cat(sprintf("lintr: %d files, no lints\n", length(package_code) + length(other_code)))
