// The vector level of the scans (`cbs_set_vector_level`) and the
// processor's AVX2 and AVX-512, asked once (`VectorLevel.h`).
#include "CByteScan.h"
#include "VectorLevel.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

int cbs_vector_level = 3;

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

int cbs_has_avx512 = -1;

int cbs_detect_avx512(void) {
  unsigned a, b, c, d;
  if (!cbs_detect_avx2()) return 0;
  // XCR0: the SSE and AVX state, and the opmask, ZMM_Hi256 and Hi16_ZMM state.
  unsigned lo, hi;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 0xE6) != 0xE6) return 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  // AVX512F (bit 16), AVX512BW (30), AVX512VL (31); AVX512_VBMI2 (ECX bit 6).
  unsigned want = (1u << 16) | (1u << 30) | (1u << 31);
  return (b & want) == want && (c & (1u << 6)) != 0;
}
#endif
