#' Engine, backend and versions
#'
#' @return A list: the engine's report (\code{auto_backend}, \code{device},
#'   versions); under \code{last_run}, what the last traversal from R ran on:
#'   \code{asked} (its \code{backend} argument), \code{backend} and
#'   \code{device} used, and for \code{"auto"} \code{why}; and, under
#'   \code{r}, the R side (package, R, reticulate, Python path).
#' @examples
#' if (cuRnet_available()) str(cuRnet_info())
#' @export
cuRnet_info <- function() {
  info <- reticulate::py_to_r(engine_import("curnet.analyses.engine_info")$info())
  info$last_run <- if (is.null(the$last_run)) structure(list(), names = character()) else the$last_run
  info$r <- list(cuRnet = as.character(utils::packageVersion("cuRnet")),
                 R = R.version.string,
                 reticulate = as.character(utils::packageVersion("reticulate")),
                 python = reticulate::py_config()$python)
  info
}

# What a call ran on, kept for cuRnet_info(): engine_call() (R/handoff.R) opens the engine's
# record of the call (python/curnet/r_bridge/session.py), the adapter writes the backend it
# resolved into it, and the record is taken here at the call's end. A call that ran no
# analysis (a graph's construction) leaves the last run as it was.
run_record_begin <- function() bridge()$begin_call()

run_record_end <- function() {
  run <- reticulate::py_to_r(bridge()$end_call())
  if (length(run)) the$last_run <- run
}
