// glibc's allocator extensions (malloc_trim), which Swift's Glibc module
// leaves out. Part of the C library: nothing to link.
#if defined(__linux__)
#include <malloc.h>
#endif
