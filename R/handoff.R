# Data to and from the engine without reticulate's element-by-element conversion
# (see src/handoff.c and python/curnet/r_bridge/handoff.py).

# An R integer or double vector as a pyarrow array over R's own memory; NA become nulls.
as_arrow <- function(x) {
  exported <- .Call(C_curnet_arrow_export, x)
  engine_module("handoff")$import_arrow(exported[[2]], exported[[3]])
}

# The same export read by the engine as a NumPy array over R's memory, without pyarrow (a
# vector with NA arrives as the pyarrow array, as from as_arrow()): for the columns a first
# call passes (a graph's ids and weights, sources, targets), which the engine reads as NumPy.
as_numbers <- function(x) {
  exported <- .Call(C_curnet_arrow_export, x)
  engine_module("handoff")$import_numbers(exported[[2]], exported[[3]])
}

# Address of a vector's data and its length (for the engine to write into it: the engine
# refuses, before writing, a result whose size is not the length R allocated).
data_address <- function(x) c(.Call(C_curnet_data_address, x), length(x))

# A k x n "integer" or "double" matrix, left uninitialised: the engine fills it.
new_result <- function(type, k, n) .Call(C_curnet_alloc_matrix, type, as.integer(k), as.integer(n))

# A result whose sizes R learns only after the run (the engine's r_bridge.handoff.Held): its
# plain values as a list, each array written by the engine into a vector allocated here and
# put in its place (a nested list's keys).
held_result <- function(held) {
  out <- reticulate::py_to_r(held$values())
  arrays <- reticulate::py_to_r(held$arrays())
  for (i in seq_along(arrays)) {
    a <- arrays[[i]]
    v <- vector(a[[2]], a[[3]])
    held$into(i - 1L, data_address(v))
    out[[unlist(a[[1]])]] <- v
  }
  out
}

# Evaluate `expr` (the engine filling `results`, fresh matrices) while background threads
# touch the results' pages (src/handoff.c: a value-preserving atomic add a page), so the
# first-touch faults overlap the engine's traversal instead of its copy. Results under
# getOption("cuRnet.prefault_bytes") (16 MiB) are left alone; getOption("cuRnet.prefault_threads")
# threads each (4; 0 turns it off).
with_prefault <- function(results, expr) {
  threads <- getOption("cuRnet.prefault_threads", 4L)
  least <- getOption("cuRnet.prefault_bytes", 16 * 2^20)
  handles <- lapply(Filter(Negate(is.null), results),
                    function(m) .Call(C_curnet_prefault_start, m, as.integer(threads), as.double(least)))
  on.exit(for (h in handles) .Call(C_curnet_prefault_join, h), add = TRUE)
  expr
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

cuRnet_error <- function(message, class = NULL, ...) {
  structure(class = c(class, "cuRnet_error", "error", "condition"),
            list(message = message, call = NULL, ...))
}

# The engine's NegativeCycleError as a condition that carries its source (1-based, and its name).
# The engine's message names the source, counted from 0; it may not know R's names, so the R
# vertex is added.
negative_cycle <- function(message, graph_names) {
  found <- regmatches(message, regexec("reachable from source ([0-9]+)", message))[[1]]
  source <- if (length(found) == 2) as.integer(found[2]) + 1L else NA_integer_
  name <- if (!is.null(graph_names) && !is.na(source)) graph_names[source]
  label <- if (is.na(source)) "a source" else if (is.null(name)) sprintf("source vertex %d", source) else
    sprintf("source '%s' (vertex %d)", name, source)
  # said in R's 1-based words only (the engine's message counts from 0)
  cuRnet_error(sprintf(paste0("NegativeCycleError: a negative-weight cycle is reachable from %s: ",
                              "shortest paths from it are undefined"), label),
               "cuRnet_negative_cycle", source = source, source_name = name)
}

# Runs a bridge call; a Python exception becomes an R error with the engine's message
# (without reticulate's wrapping), a KeyboardInterrupt an interrupt condition, a
# NegativeCycleError a cuRnet_negative_cycle condition (names: the graph's vertex names).
engine_call <- function(expr, names = NULL) {
  run_record_begin()                           # what the call ran on, for cuRnet_info() (R/info.R)
  on.exit(run_record_end(), add = TRUE)
  relay <- engine_warnings_begin()             # the engine's warnings become R's (R/messages.R)
  on.exit(engine_warnings_end(relay), add = TRUE)
  tryCatch(expr,
    interrupt = function(e) stop(interrupted()),
    error = function(e) {
      err <- reticulate::py_last_error()
      # the message starts with the type, qualified by its module for some (curnet.io.GraphFormatError)
      if (is.null(err) || !grepl(paste0("^([A-Za-z_.]+[.])?", err$type, ":"), conditionMessage(e))) stop(e)
      if (err$type == "KeyboardInterrupt") stop(interrupted())
      message <- paste0(err$type, ": ", err$value)
      if (err$type == "NegativeCycleError") stop(negative_cycle(message, names))
      stop(cuRnet_error(engine_error_message(err$type, err$value), python_type = err$type))
    })
}
