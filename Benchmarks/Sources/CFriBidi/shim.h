// Thin wrappers over GNU FriBidi for the constants Swift cannot import
// (FriBidi builds them from mask macros).
#ifndef BENCH_CFRIBIDI_SHIM_H
#define BENCH_CFRIBIDI_SHIM_H

#include <fribidi.h>

/// Auto paragraph direction (P2–P3, LTR when no strong character).
static inline FriBidiParType bench_fribidi_par_auto(void) { return FRIBIDI_PAR_ON; }

/// UTF-8 → UTF-32; returns the number of code points written.
static inline FriBidiStrIndex bench_fribidi_from_utf8(const char *src, FriBidiStrIndex length,
                                                      FriBidiChar *dest) {
  return fribidi_charset_to_unicode(FRIBIDI_CHAR_SET_UTF8, src, length, dest);
}

/// 1 for the characters UAX #9 X9 removes: LRE, RLE, LRO, RLO, PDF and BN.
static inline int bench_fribidi_removed_by_x9(FriBidiCharType type) {
  return FRIBIDI_IS_EXPLICIT_OR_BN(type) && !FRIBIDI_IS_ISOLATE(type);
}

#endif
