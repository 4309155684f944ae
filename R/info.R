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
  info <- reticulate::py_to_r(bridge()$info())
  info$r <- list(cuRnet = as.character(utils::packageVersion("cuRnet")),
                 R = R.version.string,
                 reticulate = as.character(utils::packageVersion("reticulate")),
                 python = reticulate::py_config()$python)
  info
}
