#' Run many-source jobs on a Dask cluster
#'
#' From then on \code{cuRnet_bfs}, \code{cuRnet_sssp}, \code{cuRnet_sssp_dists} and
#' \code{cuRnet_distances} cut their sources into chunks and run them on the workers of a
#' Dask cluster (each worker holds the graph; a chunk whose worker dies is re-run on
#' another), then gather the results into the same matrices as before. Needs the engine's
#' \code{[dask]} extra (Python packages dask and distributed; dask-cuda for \code{gpu = TRUE}).
#'
#' @param cluster A scheduler address such as \code{"tcp://host:8786"} (a cluster started
#'   with \code{dask scheduler} and \code{dask worker}, or \code{curnet cluster}); by default
#'   the option \code{cuRnet.cluster}. \code{NULL} (and no \code{workers}): back to running in
#'   this R session's engine.
#' @param workers Instead of an address: start a local cluster of this many worker
#'   processes, closed when another cluster is chosen.
#' @param gpu With \code{workers}: one worker per GPU (dask-cuda's LocalCUDACluster).
#' @param timeout Seconds to wait for the scheduler at \code{cluster} before giving up with an error.
#' @return The scheduler's address, invisibly (\code{NULL} when back in this session).
#' @examples
#' \dontrun{
#' cuRnet_cluster(workers = 2)          # or options(cuRnet.cluster = "tcp://host:8786")
#' d <- cuRnet_bfs(g, sources)
#' cuRnet_cluster(NULL)
#' }
#' @export
cuRnet_cluster <- function(cluster = getOption("cuRnet.cluster"), workers = NULL, gpu = FALSE,
                           timeout = 30) {
  if (!is.null(cluster) && !(is.character(cluster) && length(cluster) == 1L)) {
    stop("cluster must be a scheduler address such as \"tcp://host:8786\", or NULL", call. = FALSE)
  }
  if (!is.null(workers)) workers <- as.integer(check_number(workers, "workers", lower = 1, whole = TRUE))
  timeout <- check_number(timeout, "timeout", lower = 0, above = TRUE)
  address <- engine_call(bridge()$use_cluster(cluster, workers, isTRUE(gpu), timeout))
  invisible(reticulate::py_to_r(address))
}
