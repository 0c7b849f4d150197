// The vector level of the scans (`cbs_set_vector_level`) and the
// processor's AVX2, asked once (`VectorLevel.h`).
#include "CByteScan.h"
#include "VectorLevel.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

int cbs_vector_level = 2;

int cbs_set_vector_level(int level) { return __atomic_exchange_n(&cbs_vector_level, level, __ATOMIC_RELAXED); }

#if defined(__x86_64__)
int cbs_has_avx2 = -1;

int cbs_detect_avx2(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  // OSXSAVE and AVX.
  if ((c & (1u << 27)) == 0 || (c & (1u << 28)) == 0) return 0;
  unsigned lo, hi;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6) != 6) return 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  return (b & (1u << 5)) != 0;
}
#endif
