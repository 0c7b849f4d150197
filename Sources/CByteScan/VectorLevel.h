// What the scans of CByteScan share: the widest vectors they may use and
// the alignment of their hot loops. (Private to the module.)
#ifndef CBS_VECTOR_LEVEL_H
#define CBS_VECTOR_LEVEL_H

// The hot scans start on a 64-byte boundary: otherwise where the linker
// happens to place them moves with every symbol added anywhere in the
// program, and their loops' timing with it (5–8% on ASCII text, measured
// in round 21 of Benchmarks/README.md).
#define CBS_HOT __attribute__((aligned(64)))

// The widest vectors the scans may use (`cbs_set_vector_level`): 3 AVX-512
// where the processor has it, 2 AVX2 at most, 1 SSE2 at most, 0 none.
extern int cbs_vector_level;

// Whether the SSE2 loops may run (they are compiled where the target has SSE2).
static inline int cbs_use_sse2(void) { return __atomic_load_n(&cbs_vector_level, __ATOMIC_RELAXED) >= 1; }

#if defined(__x86_64__)
// 1 when the processor and the system support AVX2 (CPUID leaf 7 and the
// YMM state enabled in XCR0), 0 otherwise; -1 until asked.
extern int cbs_has_avx2;
int cbs_detect_avx2(void);

// 1 when the processor and the system support the AVX-512 the control
// search uses (F, BW, VL and VBMI2, with AVX2, and the opmask and ZMM
// state enabled in XCR0), 0 otherwise; -1 until asked.
extern int cbs_has_avx512;
int cbs_detect_avx512(void);

// Whether loops of `level` may run: the processor has their vectors
// (`*known`, asked of `detect` once) and the vector level allows them.
static inline int cbs_use_level(int level, int *known, int (*detect)(void)) {
  int has = __atomic_load_n(known, __ATOMIC_RELAXED);
  if (has < 0) {
    has = detect();
    __atomic_store_n(known, has, __ATOMIC_RELAXED);
  }
  return has && __atomic_load_n(&cbs_vector_level, __ATOMIC_RELAXED) >= level;
}

// Whether the AVX2 loops may run.
static inline int cbs_use_avx2(void) { return cbs_use_level(2, &cbs_has_avx2, cbs_detect_avx2); }

// Whether the AVX-512 loop may run.
static inline int cbs_use_avx512(void) { return cbs_use_level(3, &cbs_has_avx512, cbs_detect_avx512); }
#endif

#endif
