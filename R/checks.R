# Argument checks shared by cuRnet's R functions: run before any work, each names the
# argument as R spells it, says what it must be and shows what it was. NA, a vector where one
# value is wanted, or a value out of range is an error here, never a default in the engine.

# One number: not NA, of length one, finite (unless finite = FALSE), >= lower (> lower with
# above = TRUE), <= upper, and a whole number with whole = TRUE. Returns it as a double.
check_number <- function(x, name, lower = -Inf, upper = Inf, above = FALSE, whole = FALSE,
                         finite = TRUE) {
  ok <- is.numeric(x) && length(x) == 1 && !is.na(x) && (!finite || is.finite(x)) &&
    (if (above) x > lower else x >= lower) && x <= upper && (!whole || !is.finite(x) || x == round(x))
  if (!ok) {
    stop(sprintf("`%s` must be %s, not %s", name, number_rule(lower, upper, above, whole), shown_value(x)),
         call. = FALSE)
  }
  as.numeric(x)
}

# TRUE or FALSE, not NA and not a vector.
check_flag <- function(x, name) {
  if (!is.logical(x) || length(x) != 1 || is.na(x)) {
    stop(sprintf("`%s` must be TRUE or FALSE, not %s", name, shown_value(x)), call. = FALSE)
  }
  x
}

# What check_number() asks for, in words: "one positive number", "one whole number >= 1".
number_rule <- function(lower, upper, above, whole) {
  what <- if (whole) "one whole number" else "one number"
  if (lower == 0 && above && upper == Inf) return(sub("one ", "one positive ", what))
  low <- if (lower > -Inf) sprintf("%s %s", if (above) ">" else ">=", format(lower))
  high <- if (upper < Inf) sprintf("<= %s", format(upper))
  paste(c(what, if (length(c(low, high))) paste(c(low, high), collapse = " and ")), collapse = " ")
}

# A value as a message shows it: NA, NULL, "text", 3, or "2 values (1, 2)".
shown_value <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.function(x)) return("a function")
  if (length(x) == 0) return(sprintf("an empty %s", class(x)[1]))
  show <- function(v) if (is.character(v) && !is.na(v)) sprintf("\"%s\"", v) else format(v)
  if (length(x) == 1 && is.atomic(x)) return(show(x))
  if (!is.atomic(x)) return(sprintf("a %s", class(x)[1]))
  parts <- vapply(utils::head(x, 3), show, character(1))
  sprintf("%d values (%s%s)", length(x), paste(parts, collapse = ", "), if (length(x) > 3) ", ..." else "")
}
