#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>

SEXP curnet_arrow_export(SEXP x);
SEXP curnet_arrow_drain(void);
SEXP curnet_data_address(SEXP x);
SEXP curnet_alloc_matrix(SEXP type, SEXP nrow, SEXP ncol);
SEXP curnet_interrupt_pending(void);
SEXP curnet_prefault_start(SEXP x, SEXP threads, SEXP min_bytes);
SEXP curnet_prefault_join(SEXP handle);

static const R_CallMethodDef call_methods[] = {
  {"curnet_arrow_export", (DL_FUNC) &curnet_arrow_export, 1},
  {"curnet_arrow_drain", (DL_FUNC) &curnet_arrow_drain, 0},
  {"curnet_data_address", (DL_FUNC) &curnet_data_address, 1},
  {"curnet_alloc_matrix", (DL_FUNC) &curnet_alloc_matrix, 3},
  {"curnet_interrupt_pending", (DL_FUNC) &curnet_interrupt_pending, 0},
  {"curnet_prefault_start", (DL_FUNC) &curnet_prefault_start, 3},
  {"curnet_prefault_join", (DL_FUNC) &curnet_prefault_join, 1},
  {NULL, NULL, 0}
};

void R_init_cuRnet(DllInfo *dll) {
  R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
}
