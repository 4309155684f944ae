/* Zero-copy handoff between R and the Python engine.
 *
 * R -> Python: R integer and double vectors are exported through the Arrow C
 * data interface (https://arrow.apache.org/docs/format/CDataInterface.html);
 * the data buffer is R's own memory, and R's NA become nulls through a
 * validity bitmap. pyarrow imports the structs with Array._import_from_c.
 *
 * Python -> R: R allocates the result and hands the engine its data address;
 * the engine writes into it in place.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <R.h>
#include <Rinternals.h>
#ifdef __linux__
#include <sys/mman.h>
#endif
#if defined(__linux__) || defined(__APPLE__)
#include <pthread.h>
#define CURNET_PREFAULT 1
#endif

#define ARROW_FLAG_NULLABLE 2

struct ArrowSchema {
  const char *format;
  const char *name;
  const char *metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema **children;
  struct ArrowSchema *dictionary;
  void (*release)(struct ArrowSchema *);
  void *private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void **buffers;
  struct ArrowArray **children;
  struct ArrowArray *dictionary;
  void (*release)(struct ArrowArray *);
  void *private_data;
};

/* What an exported array owns: the R vector (preserved from R's collector
 * until released), its validity bitmap and the buffers list. */
struct holder {
  SEXP vector;
  uint8_t *validity;
  const void *buffers[2];
  volatile int released;
  struct holder *next;
};

/* pyarrow may drop the last reference from any thread, where calling R is not
 * allowed; the release callback only flags the holder, and R's thread frees
 * flagged holders on its next visit (export or drain). */
static struct holder *holders = NULL;

static void drain_released(void) {
  struct holder **link = &holders;
  while (*link) {
    struct holder *h = *link;
    if (h->released) {
      *link = h->next;
      R_ReleaseObject(h->vector);
      free(h->validity);
      free(h);
    } else {
      link = &h->next;
    }
  }
}

static void release_array(struct ArrowArray *array) {
  ((struct holder *) array->private_data)->released = 1;
  array->release = NULL;
}

static void release_schema(struct ArrowSchema *schema) {
  schema->release = NULL;
}

/* The two structs, owned by an external pointer so that they are freed even
 * when Python never imports them. */
struct exported {
  struct ArrowSchema schema;
  struct ArrowArray array;
};

static void finalize_exported(SEXP ptr) {
  struct exported *e = R_ExternalPtrAddr(ptr);
  if (!e) return;
  if (e->array.release) e->array.release(&e->array);
  if (e->schema.release) e->schema.release(&e->schema);
  free(e);
  R_ClearExternalPtr(ptr);
  drain_released();
}

static void *data_pointer(SEXP x) {
  return TYPEOF(x) == INTSXP ? (void *) INTEGER(x) : (void *) REAL(x);
}

static double address_of(const void *p) {
  /* user-space addresses fit in 48 bits, so a double holds them exactly */
  return (double) (uintptr_t) p;
}

/* Exports an integer (int32) or double (float64) vector; returns
 * list(handle, array_address, schema_address). */
SEXP curnet_arrow_export(SEXP x) {
  drain_released();
  if (TYPEOF(x) != INTSXP && TYPEOF(x) != REALSXP)
    error("cuRnet: only integer and double vectors can be exported to Arrow, not %s",
          type2char(TYPEOF(x)));
  R_xlen_t n = XLENGTH(x);
  struct holder *h = calloc(1, sizeof *h);
  struct exported *e = calloc(1, sizeof *e);
  if (!h || !e) {
    free(h);
    free(e);
    error("cuRnet: out of memory exporting a vector");
  }

  int64_t nulls = 0;
  if (TYPEOF(x) == INTSXP) {
    const int *v = INTEGER(x);
    for (R_xlen_t i = 0; i < n; i++) nulls += v[i] == NA_INTEGER;
  } else {
    const double *v = REAL(x);
    for (R_xlen_t i = 0; i < n; i++) nulls += ISNA(v[i]);
  }
  if (nulls) {
    h->validity = malloc((size_t) (n + 7) / 8);
    if (!h->validity) {
      free(h);
      free(e);
      error("cuRnet: out of memory for a validity bitmap");
    }
    memset(h->validity, 0, (size_t) (n + 7) / 8);
    for (R_xlen_t i = 0; i < n; i++) {
      int valid = TYPEOF(x) == INTSXP ? INTEGER(x)[i] != NA_INTEGER : !ISNA(REAL(x)[i]);
      if (valid) h->validity[i >> 3] |= (uint8_t) (1u << (i & 7));
    }
  }

  R_PreserveObject(x);
  h->vector = x;
  h->buffers[0] = h->validity;
  h->buffers[1] = n ? data_pointer(x) : NULL;
  h->next = holders;
  holders = h;

  e->schema.format = TYPEOF(x) == INTSXP ? "i" : "g";
  e->schema.name = "";
  e->schema.flags = ARROW_FLAG_NULLABLE;
  e->schema.release = release_schema;

  e->array.length = n;
  e->array.null_count = nulls;
  e->array.n_buffers = 2;
  e->array.buffers = h->buffers;
  e->array.release = release_array;
  e->array.private_data = h;

  SEXP handle = PROTECT(R_MakeExternalPtr(e, install("cuRnet_arrow"), x));
  R_RegisterCFinalizerEx(handle, finalize_exported, TRUE);
  SEXP out = PROTECT(allocVector(VECSXP, 3));
  SET_VECTOR_ELT(out, 0, handle);
  SET_VECTOR_ELT(out, 1, ScalarReal(address_of(&e->array)));
  SET_VECTOR_ELT(out, 2, ScalarReal(address_of(&e->schema)));
  UNPROTECT(2);
  return out;
}

/* Frees what pyarrow has released; returns how many exports are still alive. */
SEXP curnet_arrow_drain(void) {
  drain_released();
  int alive = 0;
  for (struct holder *h = holders; h; h = h->next) alive++;
  return ScalarInteger(alive);
}

/* The address of a vector's data, for the engine to read or write in place. */
SEXP curnet_data_address(SEXP x) {
  if (TYPEOF(x) != INTSXP && TYPEOF(x) != REALSXP)
    error("cuRnet: not an integer or double vector");
  return ScalarReal(XLENGTH(x) ? address_of(data_pointer(x)) : 0);
}

/* First writes into fresh memory fault page by page; with transparent huge
 * pages in "madvise" mode (Debian's default) 2 MiB pages make filling a large
 * result about 3x faster, as NumPy does for its own large arrays. */
static void advise_huge_pages(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = (uintptr_t) 1 << 21;
  uintptr_t start = ((uintptr_t) p + huge - 1) & ~(huge - 1);
  uintptr_t end = ((uintptr_t) p + bytes) & ~(huge - 1);
  if (end > start) madvise((void *) start, end - start, MADV_HUGEPAGE);
#endif
}

/* An uninitialised k x n matrix ("integer" or "double"): the engine fills
 * every cell, so R need not write it first. */
SEXP curnet_alloc_matrix(SEXP type, SEXP nrow, SEXP ncol) {
  int k = asInteger(nrow), n = asInteger(ncol);
  if (k == NA_INTEGER || n == NA_INTEGER || k < 0 || n < 0)
    error("cuRnet: invalid matrix size");
  const char *t = CHAR(STRING_ELT(type, 0));
  SEXPTYPE st = strcmp(t, "integer") == 0 ? INTSXP : REALSXP;
  SEXP m = allocMatrix(st, k, n);
  advise_huge_pages(data_pointer(m), (size_t) k * n * (st == INTSXP ? sizeof(int) : sizeof(double)));
  return m;
}

static void check_interrupt(void *unused) {
  R_CheckUserInterrupt();
}

/* TRUE when the user pressed Ctrl-C; R's interrupt is consumed here, safely,
 * so that the engine can stop between batches. */
SEXP curnet_interrupt_pending(void) {
  return ScalarLogical(!R_ToplevelExec(check_interrupt, NULL));
}

/* Prefaulting a fresh result while the engine computes. A fresh allocation's pages are
 * mapped on first write; the engine's copy into the result would take those faults on the
 * critical path (inside the driver's pageable copy on a GPU). Worker threads touch one
 * byte of each page first, by an atomic add of zero: it maps the page and leaves its
 * value as it is, so it may run while the engine writes the same memory (a store before
 * the add is read and written back unchanged, one after it wins). */
#ifdef CURNET_PREFAULT
#define PREFAULT_MAX_THREADS 16
#define PAGE_BYTES 4096

struct prefault_part {
  unsigned char *start;
  size_t bytes;
};

struct prefault {
  pthread_t threads[PREFAULT_MAX_THREADS];
  struct prefault_part parts[PREFAULT_MAX_THREADS];
  int started;
};

static void *prefault_part(void *arg) {
  struct prefault_part *part = arg;
  for (size_t at = 0; at < part->bytes; at += PAGE_BYTES)
    __atomic_fetch_add(part->start + at, (unsigned char) 0, __ATOMIC_RELAXED);
  return NULL;
}

static void prefault_join(struct prefault *pf) {
  for (int i = 0; i < pf->started; i++) pthread_join(pf->threads[i], NULL);
  pf->started = 0;
}

static void prefault_finalize(SEXP handle) {
  struct prefault *pf = R_ExternalPtrAddr(handle);
  if (pf) {
    prefault_join(pf);
    free(pf);
    R_ClearExternalPtr(handle);
  }
}
#endif

/* Start touching the pages of vector x on up to `threads` threads (x's bytes split in
 * page-aligned parts); NULL when x is under min_bytes or threads < 1 (nothing to gain).
 * The handle keeps x alive; curnet_prefault_join (or the handle's finalizer) waits. */
SEXP curnet_prefault_start(SEXP x, SEXP threads, SEXP min_bytes) {
#ifdef CURNET_PREFAULT
  if (TYPEOF(x) != INTSXP && TYPEOF(x) != REALSXP) error("cuRnet: prefault needs an integer or double vector");
  int k = asInteger(threads);
  double least = asReal(min_bytes);
  size_t bytes = (size_t) XLENGTH(x) * (TYPEOF(x) == INTSXP ? sizeof(int) : sizeof(double));
  if (k == NA_INTEGER || k < 1 || bytes == 0 || (double) bytes < least) return R_NilValue;
  if (k > PREFAULT_MAX_THREADS) k = PREFAULT_MAX_THREADS;
  struct prefault *pf = calloc(1, sizeof *pf);
  if (!pf) return R_NilValue;
  SEXP handle = PROTECT(R_MakeExternalPtr(pf, R_NilValue, x));
  R_RegisterCFinalizerEx(handle, prefault_finalize, TRUE);
  unsigned char *base = (unsigned char *) data_pointer(x);
  size_t pages = (bytes + PAGE_BYTES - 1) / PAGE_BYTES, per = (pages + k - 1) / k;
  for (int i = 0; i < k; i++) {
    size_t first = (size_t) i * per * PAGE_BYTES;
    if (first >= bytes) break;
    size_t end = first + per * PAGE_BYTES < bytes ? first + per * PAGE_BYTES : bytes;
    pf->parts[i].start = base + first;
    pf->parts[i].bytes = end - first;
    if (pthread_create(&pf->threads[i], NULL, prefault_part, &pf->parts[i]) != 0) break;
    pf->started++;
  }
  UNPROTECT(1);
  return handle;
#else
  return R_NilValue;
#endif
}

/* Wait for a prefault's threads (NULL: nothing to wait for); TRUE when there were any. */
SEXP curnet_prefault_join(SEXP handle) {
#ifdef CURNET_PREFAULT
  if (TYPEOF(handle) == EXTPTRSXP) {
    struct prefault *pf = R_ExternalPtrAddr(handle);
    int had = pf && pf->started > 0;
    prefault_finalize(handle);
    return ScalarLogical(had);
  }
#endif
  return ScalarLogical(FALSE);
}
