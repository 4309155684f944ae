# lintr over the R package and the project's R scripts (settings: .lintr); fails on any lint.
# `make lint-r` (part of `make lint` and `make test`).
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
