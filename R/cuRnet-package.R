#' cuRnet: graph traversals for biological networks on the GPU and CPU
#'
#' Many-source BFS, shortest paths (distances and predecessors) and strongly
#' connected components, computed by the Python engine \code{curnet} (CuPy on
#' an NVIDIA GPU, NumPy/SciPy elsewhere) through reticulate. Graphs stay in
#' the engine between calls; data crosses without element-by-element
#' conversion (Arrow C data interface in, results written into R's memory).
#'
#' Start with \code{\link{cuRnet_graph}}; see \code{vignette("cuRnet")}.
#' The Python environment is found by \code{\link{cuRnet_python}} and made by
#' \code{\link{cuRnet_install}}.
#'
#' @keywords internal
#' @useDynLib cuRnet, .registration = TRUE, .fixes = "C_"
"_PACKAGE"
