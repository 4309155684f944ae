# cuRnet_blockwiseModules end to end from R, in one block, against the number of genes (the
# plot of docs/modules.md), with the device's memory:
#   Rscript bench/r_modules_series.R OUT.json SECONDS GENES...     (bench/ and python/ on PYTHONPATH)
# Data: bench.modules' planted modules (GENES x 100 samples), written by bench/hclust_split.py
# into R's samples x genes matrix. First a 1,000-gene call (the process's first call, apart),
# then each size in the order given; a size is skipped when the time it would take
# (the largest size run so far, scaled by genes squared) would end after SECONDS. Each call's
# time is split into the engine's calls (engine_call: the start, the block's TOM, tree and
# 1 - TOM written into R's matrix, the labels, the eigengenes and merging), R's
# dynamicTreeCut::cutreeHybrid and the rest (R's own work), by trace(). GPU memory: CuPy's
# pool's bytes after the call (freed before it: the call's peak in the pool) and the device's
# used memory then (cudaMemGetInfo, the CUDA context included).
suppressPackageStartupMessages({ library(cuRnet); library(jsonlite) })
args <- commandArgs(TRUE)
out <- args[1]
within <- as.numeric(args[2])
sizes <- as.integer(args[-(1:2)])
t0 <- proc.time()[["elapsed"]]
now <- function() proc.time()[["elapsed"]]
helper <- reticulate::import("bench.hclust_split", convert = FALSE)
gpu <- cuRnet_info()$backend != "cpu"

spent <- new.env()
stamp <- function(what) { force(what); function() spent[[what]] <- c(spent[[what]], now()) }
for (f in list(list("engine_call", "cuRnet", "engine"), list("cutreeHybrid", "dynamicTreeCut", "cut"))) {
  suppressMessages(trace(f[[1]], where = asNamespace(f[[2]]), print = FALSE,
                         tracer = as.call(list(stamp(paste0(f[[3]], "_in")))),
                         exit = as.call(list(stamp(paste0(f[[3]], "_out"))))))
}
took <- function(what) sum(spent[[paste0(what, "_out")]] - spent[[paste0(what, "_in")]])

one <- function(n) {
  x <- matrix(0, 100, n)
  helper$expression_into(cuRnet:::data_address(x), n)
  if (gpu) helper$free_pool()
  rm(list = ls(spent), envir = spent)
  gc()
  t <- now()
  m <- cuRnet_blockwiseModules(x)
  total <- now() - t
  row <- list(genes = n, samples = 100, modules_curnet_s = total, engine_calls_s = took("engine"),
              cutreeHybrid_s = took("cut"), r_rest_s = total - took("engine") - took("cut"),
              modules = length(setdiff(unique(m$colors), "grey")), blocks = length(m$dendrograms))
  if (gpu) {
    mem <- reticulate::py_to_r(helper$gpu_memory())
    row$gpu_pool_peak_bytes <- mem$pool_bytes
    row$gpu_device_used_bytes <- mem$device_used_bytes
  }
  cat(sprintf("[%.0f s] %d genes: %.2f s (engine %.2f, cutreeHybrid %.2f, R %.2f), %d modules, pool %.1f GB\n",
              now() - t0, n, total, row$engine_calls_s, row$cutreeHybrid_s, row$r_rest_s, row$modules,
              if (gpu) row$gpu_pool_peak_bytes / 1e9 else 0))
  row
}
report <- list(machine = Sys.info()[["nodename"]], R = R.version.string, engine = cuRnet_info()$backend,
               date = format(Sys.time(), tz = "UTC", usetz = TRUE), rows = list())
save <- function() writeLines(toJSON(report, auto_unbox = TRUE, pretty = TRUE, digits = NA), out)
first <- one(1000L)
first$first_call <- TRUE
report$rows[[1]] <- first
save()
largest <- NULL
for (n in sizes) {
  if (!is.null(largest)) {
    expected <- largest$modules_curnet_s * (n / largest$genes)^2
    if (now() - t0 + expected > within) {
      cat(sprintf("skipped %d genes: about %.0f s left, about %.0f s needed\n", n, within - (now() - t0), expected))
      report$skipped <- c(report$skipped, n)
      next
    }
  }
  row <- one(n)
  report$rows[[length(report$rows) + 1]] <- row
  save()
  if (is.null(largest) || n > largest$genes) largest <- row
}
save()
