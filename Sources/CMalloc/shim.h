// glibc's allocator extensions (malloc_trim), which Swift's Glibc module
// leaves out, and mremap (variadic in C, so not imported into Swift).
// Part of the C library: nothing to link.
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <malloc.h>
#include <sys/mman.h>

/// Moves the mapping at `from` (`length` bytes) onto `to`, grown to
/// `newLength` bytes, replacing whatever was mapped there; its pages move
/// without being copied. Returns `to`, or MAP_FAILED.
static inline void *cmalloc_mremap_fixed(void *from, size_t length, size_t newLength, void *to) {
  return mremap(from, length, newLength, MREMAP_MAYMOVE | MREMAP_FIXED, to);
}
#endif
