# Data to and from the engine without reticulate's element-by-element conversion
# (see src/handoff.c and python/curnet/bridge.py).

# An R integer or double vector as a pyarrow array over R's own memory; NA become nulls.
as_arrow <- function(x) {
  exported <- .Call(C_curnet_arrow_export, x)
  bridge()$import_arrow(exported[[2]], exported[[3]])
}

# Address of a vector's data (for the engine to write into it).
data_address <- function(x) .Call(C_curnet_data_address, x)

# A k x n "integer" or "double" matrix, left uninitialised: the engine fills it.
new_result <- function(type, k, n) .Call(C_curnet_alloc_matrix, type, as.integer(k), as.integer(n))

# Refuses, before allocating, results of k x n cells (bytes_per_cell for all of them)
# larger than the host memory available now (Linux: MemAvailable; elsewhere unchecked).
check_result_fits <- function(k, n, bytes_per_cell) {
  need <- as.double(k) * n * bytes_per_cell
  info <- if (file.exists("/proc/meminfo")) readLines("/proc/meminfo", warn = FALSE) else character()
  line <- grep("^MemAvailable:", info, value = TRUE)
  free <- if (length(line)) as.double(gsub("[^0-9]", "", line)) * 1024 else Inf
  if (need > free) {
    stop(cuRnet_error(sprintf(paste0(
      "the result for %s sources x %s vertices needs %.2f GiB of memory, but only %.2f GiB is ",
      "available: use fewer sources per call"), format(k, big.mark = ","), format(n, big.mark = ","),
      need / 2^30, free / 2^30)))
  }
}

# The engine's progress hook: draws a bar (or calls the user's function) and tells
# the engine to stop, between batches, when the user pressed Ctrl-C.
progress_hook <- function(progress, label) {
  bar <- NULL
  function(done, total) {
    done <- reticulate::py_to_r(done)
    total <- reticulate::py_to_r(total)
    if (is.function(progress)) {
      progress(done, total)
    } else if (isTRUE(progress) && total > 0) {
      if (is.null(bar)) {
        bar <<- progress::progress_bar$new(
          format = paste(label, "[:bar] :current/:total sources, :elapsed"), total = total,
          clear = FALSE, show_after = 0.5)
      }
      bar$update(min(done / total, 1))
    }
    !.Call(C_curnet_interrupt_pending)
  }
}

interrupted <- function() {
  structure(class = c("cuRnet_interrupted", "interrupt", "error", "condition"),
            list(message = "interrupted; the graph and the session remain usable", call = NULL))
}

cuRnet_error <- function(message) {
  structure(class = c("cuRnet_error", "error", "condition"), list(message = message, call = NULL))
}

# Runs a bridge call; a Python exception becomes an R error with the engine's message
# (without reticulate's wrapping), a KeyboardInterrupt an interrupt condition.
engine_call <- function(expr) {
  tryCatch(expr,
    interrupt = function(e) stop(interrupted()),
    error = function(e) {
      err <- reticulate::py_last_error()
      # the message starts with the type, qualified by its module for some (curnet.io.GraphFormatError)
      if (is.null(err) || !grepl(paste0("^([A-Za-z_.]+[.])?", err$type, ":"), conditionMessage(e))) stop(e)
      if (err$type == "KeyboardInterrupt") stop(interrupted())
      stop(cuRnet_error(paste0(err$type, ": ", err$value)))
    })
}
