# The engine speaks Python; what an R user reads is said in R's words. Every warning the
# engine raises during a call comes back as an R warning (class cuRnet_warning, with the
# Python category in `category`), so suppressWarnings(), withCallingHandlers() and
# expect_warning() see it, and an engine message keeps no Python spelling that R does not use.

# Opens the record of the engine's warnings for one call (python/curnet/r_bridge/messages.py).
engine_warnings_begin <- function() {
  relay <- engine_module("messages")
  relay$begin()
  relay
}

# Closes it and raises each warning recorded as an R warning.
engine_warnings_end <- function(relay) {
  for (w in reticulate::py_to_r(relay$end())) {
    category <- w[[1]]
    text <- r_words(w[[2]])
    if (category == "RuntimeWarning") text <- paste0("in the engine's arithmetic (NumPy): ", text)
    warning(structure(class = c("cuRnet_warning", "warning", "condition"),
                      list(message = text, call = NULL, category = category)))
  }
}

# An engine error as R shows it: Python's own exception names (ValueError, TypeError, ...)
# say nothing to an R user and are left out; the engine's named errors (NegativeCycleError,
# BackendUnavailableError, OutputTooLargeError, ...) keep their name, which says what happened.
engine_error_message <- function(type, value) {
  python_builtin <- c("ValueError", "TypeError", "KeyError", "IndexError", "RuntimeError",
                      "AssertionError", "AttributeError", "OverflowError", "ZeroDivisionError")
  r_words(if (type %in% python_builtin) value else paste0(type, ": ", value))
}

# Python spellings in the engine's messages, in R's words: argument names and values
# (weighted=False is weights = NA in R), the engine's functions as R's, NumPy's repr of a
# value (np.str_('EGFR')) as the value, nan and inf as R's NaN and Inf, an edge's 0-based
# position as R's 1-based one.
r_words <- function(text) {
  fixed <- c("(weights = NA in R, weighted=False in Python)" = "(weights = NA)",
             "use weighted=False" = "give weights = NA",
             "weighted=False" = "weights = NA",
             "duplicates='last'" = "a repeated name's last prize",
             "curnet.interactome()" = "cuRnet_interactome()",
             "(cuRnet_distances / curnet.sssp)" = "(cuRnet_distances)")
  for (python in names(fixed)) text <- gsub(python, fixed[[python]], text, fixed = TRUE)
  text <- gsub("np\\.(str_|float64|int64|int32)\\(([^()]*)\\)", "\\2", text)
  # Python's nan and inf as values (not inside a file name such as nan.tsv)
  text <- gsub("(^|[ (=])(-?)nan\\b(?![.\\w])", "\\1\\2NaN", text, perl = TRUE)
  text <- gsub("(^|[ (=])(-?)inf\\b(?![.\\w])", "\\1\\2Inf", text, perl = TRUE)
  # an edge's position, counted from 0 by the engine: R counts from 1
  text <- gsub(" \\(index [0-9]+\\)", "", text)
  at <- gregexpr("edge [0-9]+ has weight", text)
  regmatches(text, at) <- lapply(regmatches(text, at), function(s) {
    vapply(s, function(x) sub("[0-9]+", as.integer(sub("edge ([0-9]+).*", "\\1", x)) + 1L, x), "")
  })
  text
}
