# cuRnet_hclust's time from R, step by step (docs/modules.md's account of the 1 s target):
#   Rscript bench/r_hclust_split.R OUT.json [GENES [REPEAT]]     (bench/ and python/ on PYTHONPATH)
# The dist: as.dist(1 - TOM) of bench.modules' planted modules (GENES x 100 samples), written
# by bench/hclust_split.py into a double vector R allocated and made a dist in place
# (as.dist(1 - tom) itself would take R more time and memory than the clustering; it is not
# part of the call). Then: cuRnet_hclust once (the process's first call), the whole call
# REPEAT times, and one call's steps timed apart, in the order the call takes them:
#   R: the length check and the dist's address (R's finiteness checks and the Arrow export
#      the call made before, timed beside it);
#   the engine (bench/hclust_split.py's split_for_r, the device drained after each step):
#      reading R's memory, the move to the device, the expansion, the checks, the kernel,
#      the copy back, R's encoding, the plain lists;
#   R: reticulate's conversion of the lists, the hclust object built.
suppressPackageStartupMessages({ library(cuRnet); library(jsonlite) })
args <- commandArgs(TRUE)
out <- args[1]
n <- if (length(args) >= 2) as.integer(args[2]) else 2000L
repeats <- if (length(args) >= 3) as.integer(args[3]) else 2L
elapsed <- function(expr) { t <- proc.time()[["elapsed"]]; force(expr); proc.time()[["elapsed"]] - t }
row <- list(genes = n, samples = 100, engine = NA)
save <- function() writeLines(toJSON(list(machine = Sys.info()[["nodename"]], R = R.version.string,
                                          date = format(Sys.time(), tz = "UTC", usetz = TRUE), row = row),
                                     auto_unbox = TRUE, pretty = TRUE, digits = NA), out)

split <- reticulate::import("bench.hclust_split", convert = FALSE)
row$engine <- cuRnet_info()$backend
row$make_dist_s <- elapsed({
  d <- numeric(as.numeric(n) * (n - 1) / 2)
  split$condensed_into(cuRnet:::data_address(d), n, backend = row$engine)
  attributes(d) <- list(Size = n, Diag = FALSE, Upper = FALSE, method = "1 - TOM", class = "dist")
})
row$first_call_s <- elapsed(first <- cuRnet_hclust(d, "average"))
row$whole_s <- vapply(seq_len(repeats), function(i) elapsed(h <<- cuRnet_hclust(d, "average")), numeric(1))
save()
cat(sprintf("%d genes: first %.3f s, whole %s s\n", n, row$first_call_s, paste(round(row$whole_s, 3), collapse = ", ")))

# one call's steps, as R/hclust.R takes them (its argument checks and attributes: microseconds)
steps <- list()
steps[["R: length check, the dist's address (data_address)"]] <- elapsed({
  stopifnot(length(d) == n * (n - 1) / 2)
  values <- if (is.double(d)) d else as.double(d)
  address <- cuRnet:::data_address(values)
})
# what the call did before (R's finiteness checks, the Arrow export), beside it
steps[["before: R's finiteness check by min() and max() (not in the call now)"]] <-
  elapsed(stopifnot(all(is.finite(c(min(values), max(values))))))
steps[["before: R's finiteness check by range() (not in the call now)"]] <-
  elapsed(stopifnot(all(is.finite(range(values)))))
steps[["before: the Arrow export (as_numbers; counts NA) (not in the call now)"]] <-
  elapsed(numbers <- cuRnet:::as_numbers(values))
rm(numbers)
engine_s <- elapsed(r <- split$split_for_r(address, n, "average", backend = row$engine))
engine_steps <- reticulate::py_to_r(r[0])
for (s in names(engine_steps)) steps[[paste("engine:", s)]] <- engine_steps[[s]]
steps[["R: between R and the engine's steps (reticulate's call and return)"]] <- engine_s - sum(unlist(engine_steps))
steps[["R: reticulate converts the lists (py_to_r)"]] <- elapsed(res <- reticulate::py_to_r(r[1]))
steps[["R: the hclust object (unlist, matrix)"]] <- elapsed(
  tree <- structure(list(merge = matrix(as.integer(unlist(res$merge)), ncol = 2),
                         height = as.double(unlist(res$height)), order = as.integer(unlist(res$order)),
                         labels = NULL, method = "average",
                         call = quote(cuRnet_hclust(d)), dist.method = "1 - TOM"), class = "hclust"))
row$steps_s <- steps
in_call <- !grepl("not in the call", names(steps))
row$steps_in_call_sum_s <- sum(unlist(steps[in_call]))
row$steps_same_tree <- identical(tree$merge, h$merge) && identical(tree$height, h$height) &&
  identical(tree$order, h$order)
row$whole_after_s <- elapsed(h2 <- cuRnet_hclust(d, "average"))
save()
for (s in names(steps)) cat(sprintf("  %-72s %8.3f s\n", s, steps[[s]]))
cat(sprintf("  steps of the call summed %.3f s; whole calls %s s; same tree: %s\n", row$steps_in_call_sum_s,
            paste(round(c(row$whole_s, row$whole_after_s), 3), collapse = ", "), row$steps_same_tree))
