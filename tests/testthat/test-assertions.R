# A guard on the tests themselves: an expectation that compares `x[[name]]` with `y[[name]]`
# (a variable index) compares NULL with NULL when `[[` is the class's own, as on igraph's
# `communities` objects, whose `[[` indexes the groups; such a test passes whatever the
# results. Fields are compared with expect_same_field() (helper-cuRnet.R), which unclasses
# and requires the oracle's field to hold something.

bad_field_comparison <- "expect_[a-z_]+\\(\\s*[^,()]*\\[\\[\\s*[A-Za-z._][A-Za-z0-9._]*\\s*\\]\\]"

test_that("the scan finds a field compared through [[ with a variable index", {
  expect_true(grepl(bad_field_comparison,
                    "    expect_equal(got[[field]], want[[field]], tolerance = 1e-9, info = field)"))
  expect_false(grepl(bad_field_comparison, "    expect_same_field(got, want, field, tolerance = 1e-9)"))
  expect_false(grepl(bad_field_comparison, '  expect_equal(ret[["distances"]], want)'))
})

test_that("no test compares fields through [[ with a variable index", {
  files <- list.files(testthat::test_path(), pattern = "\\.R$", full.names = TRUE)
  files <- files[basename(files) != "test-assertions.R"]
  expect_gt(length(files), 10)
  hits <- unlist(lapply(files, function(f) {
    lines <- readLines(f, warn = FALSE)
    at <- grep(bad_field_comparison, lines)
    if (length(at)) sprintf("%s:%d: %s", basename(f), at, trimws(lines[at]))
  }))
  expect_identical(hits, NULL, info = paste(hits, collapse = "\n"))
})

test_that("expect_same_field fails on a field neither side has, and on communities' [[", {
  g <- igraph::make_graph("Zachary")
  want <- igraph::cluster_edge_betweenness(g)
  expect_null(want[["merges"]])                            # `[[` indexes the groups
  expect_failure(expect_same_field(want, want, "no such field"))
  expect_failure(expect_same_field(list(merges = numeric(0)), list(merges = numeric(0)), "merges"))
  expect_success(expect_same_field(want, want, "merges"))
})
