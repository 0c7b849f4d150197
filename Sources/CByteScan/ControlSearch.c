// `cbs_find_bidi_controls`: the search for bidi controls of the hazard
// scan, 16 bytes at a time with SSE2, 64 a round with AVX2.
#include "CByteScan.h"
#include "VectorLevel.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#if defined(__SSE2__)
// 0xFF in each byte of `v` that is the lead of a two-byte sequence (C2–DF).
static inline __m128i two_byte_leads(__m128i v) {
  __m128i t = _mm_sub_epi8(v, _mm_set1_epi8((char)0xC2));
  return _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(0x1D)), t);
}

// 0xFF in each byte of `v` that is a continuation byte (80–BF).
static inline __m128i continuations(__m128i v) {
  return _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xC0)), _mm_set1_epi8((char)0x80));
}

// The bytes of `v` (its bytes before and after: `prev`, `next`) a hazard
// scan must decide: leads of three- and four-byte sequences and F5–FF,
// over-long leads C0 and C1, a continuation byte after no two-byte lead, a
// two-byte lead before no continuation byte, and ALM's D8 before 9C.
static inline int stops(__m128i v, __m128i prev, __m128i next) {
  __m128i high = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8((char)0xE0)), v);
  __m128i overlong = _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xFE)), _mm_set1_epi8((char)0xC0));
  __m128i stray = _mm_andnot_si128(two_byte_leads(prev), continuations(v));
  __m128i broken = _mm_andnot_si128(continuations(next), two_byte_leads(v));
  __m128i alm = _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xD8)),
                              _mm_cmpeq_epi8(next, _mm_set1_epi8((char)0x9C)));
  return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(high, overlong), _mm_or_si128(_mm_or_si128(stray, broken), alm)));
}
#endif

static inline int is_continuation(uint8_t b) { return (b & 0xC0) == 0x80; }

// The length of the sequence at `p` when it is ASCII, a well-formed
// two-byte sequence or a well-formed three-byte sequence led by E2 (every
// bidi control but ALM is one), else 0: a sequence the caller decodes.
// `*control` receives the code point of a bidi control, else 0.
static inline size_t sequence_at(const uint8_t *bytes, size_t p, size_t count, uint32_t *control) {
  uint8_t b0 = bytes[p];
  size_t rest = count - p;
  *control = 0;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    if (rest < 2 || !is_continuation(bytes[p + 1])) return 0;
    if (b0 == 0xD8 && bytes[p + 1] == 0x9C) *control = 0x061C;  // ALM
    return 2;
  }
  if (b0 == 0xE2 && rest >= 3 && is_continuation(bytes[p + 1]) && is_continuation(bytes[p + 2])) {
    uint8_t b1 = bytes[p + 1], b2 = bytes[p + 2];
    // LRM, RLM, LRE…RLO (E2 80 8E, 8F, AA–AE); LRI…PDI (E2 81 A6–A9).
    if ((b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xAA && b2 <= 0xAE))) ||
        (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9))
      *control = 0x2000u + ((uint32_t)(b1 & 0x3F) << 6) + (b2 & 0x3F);
    return 3;
  }
  return 0;
}

#if defined(__x86_64__)
// `stops`, 32 bytes at a time.
__attribute__((target("avx2"))) static inline __m256i two_byte_leads_avx2(__m256i v) {
  __m256i t = _mm256_sub_epi8(v, _mm256_set1_epi8((char)0xC2));
  return _mm256_cmpeq_epi8(_mm256_min_epu8(t, _mm256_set1_epi8(0x1D)), t);
}

__attribute__((target("avx2"))) static inline __m256i continuations_avx2(__m256i v) {
  return _mm256_cmpeq_epi8(_mm256_and_si256(v, _mm256_set1_epi8((char)0xC0)), _mm256_set1_epi8((char)0x80));
}

__attribute__((target("avx2"))) static inline uint32_t stops_avx2(__m256i v, __m256i prev, __m256i next) {
  __m256i high = _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8((char)0xE0)), v);
  __m256i overlong = _mm256_cmpeq_epi8(_mm256_and_si256(v, _mm256_set1_epi8((char)0xFE)), _mm256_set1_epi8((char)0xC0));
  __m256i stray = _mm256_andnot_si256(two_byte_leads_avx2(prev), continuations_avx2(v));
  __m256i broken = _mm256_andnot_si256(continuations_avx2(next), two_byte_leads_avx2(v));
  __m256i alm = _mm256_and_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)0xD8)),
                                 _mm256_cmpeq_epi8(next, _mm256_set1_epi8((char)0x9C)));
  return (uint32_t)_mm256_movemask_epi8(
      _mm256_or_si256(_mm256_or_si256(high, overlong), _mm256_or_si256(_mm256_or_si256(stray, broken), alm)));
}

// The bits of `v`'s bytes that are set (its bytes 80–FF).
__attribute__((target("avx2"))) static inline uint32_t movemask_avx2(__m256i v) {
  return (uint32_t)_mm256_movemask_epi8(v);
}

// 0 in the first 64 bytes, 0xFF in the 64 after: loaded from `64 - k`,
// 0xFF in the bytes from `k` on.
static const uint8_t from_ramp[128] __attribute__((aligned(64))) = {
    [64] = 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

// A block of 64 bytes (`v0`, `v1`; `n0`, `n1`: the bytes one after each)
// as a search of text made of ASCII, two-byte sequences and E2 three-byte
// ones sees it, looking only at the bytes where `from0` and `from1` are
// 0xFF (a sequence starts at the first of them). Returns 0 when the block
// is that simple — its continuation bytes (80–BF) exactly the one after
// each two-byte lead (C2–DF) or E2 and the two after each E2 (those past
// the block left out), no other byte above 7F — else not 0. `*marks`
// receives the bits of the E2 bytes and of ALM's leads (D8 before 9C),
// `*over` the continuation bytes the block's last sequence calls for past
// it (bit 0 the first, bit 1 the second: 0, 1 or 3). In vectors, with 5
// bit masks a block: text dense with controls has most of its blocks
// that simple.
__attribute__((target("avx2"))) static inline uint32_t simple_block_avx2(__m256i v0, __m256i v1, __m256i n0,
                                                                         __m256i n1, __m256i from0, __m256i from1,
                                                                         uint64_t *marks, unsigned *over) {
  const __m256i zero = _mm256_setzero_si256();
  // Continuation bytes: signed, below -64. Two-byte leads: (v - C2) below
  // 1E as unsigned, signed after moving the range down by 0x80.
  __m256i t0 = _mm256_and_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v0), from0);
  __m256i t1 = _mm256_and_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v1), from1);
  __m256i e0 = _mm256_and_si256(_mm256_cmpeq_epi8(v0, _mm256_set1_epi8((char)0xE2)), from0);
  __m256i e1 = _mm256_and_si256(_mm256_cmpeq_epi8(v1, _mm256_set1_epi8((char)0xE2)), from1);
  __m256i s0 = _mm256_or_si256(
      _mm256_and_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x1E - 0x80)),
                                         _mm256_sub_epi8(v0, _mm256_set1_epi8((char)(0xC2 + 0x80)))),
                       from0),
      e0);
  __m256i s1 = _mm256_or_si256(
      _mm256_and_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x1E - 0x80)),
                                         _mm256_sub_epi8(v1, _mm256_set1_epi8((char)(0xC2 + 0x80)))),
                       from1),
      e1);
  // The continuation bytes called for: the leads moved up one byte, the
  // E2s two (across the halves; none from before the block).
  __m256i want0 = _mm256_or_si256(_mm256_alignr_epi8(s0, _mm256_permute2x128_si256(s0, s0, 0x08), 15),
                                  _mm256_alignr_epi8(e0, _mm256_permute2x128_si256(e0, e0, 0x08), 14));
  __m256i want1 = _mm256_or_si256(_mm256_alignr_epi8(s1, _mm256_permute2x128_si256(s0, s1, 0x21), 15),
                                  _mm256_alignr_epi8(e1, _mm256_permute2x128_si256(e0, e1, 0x21), 14));
  __m256i h0 = _mm256_and_si256(_mm256_cmpgt_epi8(zero, v0), from0);
  __m256i h1 = _mm256_and_si256(_mm256_cmpgt_epi8(zero, v1), from1);
  __m256i bad = _mm256_or_si256(
      _mm256_or_si256(_mm256_xor_si256(want0, t0), _mm256_andnot_si256(_mm256_or_si256(t0, s0), h0)),
      _mm256_or_si256(_mm256_xor_si256(want1, t1), _mm256_andnot_si256(_mm256_or_si256(t1, s1), h1)));
  __m256i alm0 = _mm256_and_si256(_mm256_cmpeq_epi8(v0, _mm256_set1_epi8((char)0xD8)),
                                  _mm256_cmpeq_epi8(n0, _mm256_set1_epi8((char)0x9C)));
  __m256i alm1 = _mm256_and_si256(_mm256_cmpeq_epi8(v1, _mm256_set1_epi8((char)0xD8)),
                                  _mm256_cmpeq_epi8(n1, _mm256_set1_epi8((char)0x9C)));
  *marks = movemask_avx2(_mm256_or_si256(e0, _mm256_and_si256(alm0, from0))) |
           (uint64_t)movemask_avx2(_mm256_or_si256(e1, _mm256_and_si256(alm1, from1))) << 32;
  *over = (movemask_avx2(s1) >> 31) | (movemask_avx2(e1) >> 30);
  return movemask_avx2(bad);
}

// The three-byte controls by the low six bits of their third byte (which
// tell them apart): their second byte (80, 81) in bits 16–23, their code
// point in bits 0–15; 0 for the others. E2 80 {8E, 8F, AA–AE}, E2 81
// {A6–A9}.
#define CBS_E2(b1, b2) [(b2) & 0x3F] = (0x##b1##u << 16) | (0x2000u + ((0x##b1##u & 0x3F) << 6) + ((b2) & 0x3F))
static const uint32_t three_byte_controls[64] = {
    CBS_E2(80, 0x8E), CBS_E2(80, 0x8F), CBS_E2(80, 0xAA), CBS_E2(80, 0xAB), CBS_E2(80, 0xAC), CBS_E2(80, 0xAD),
    CBS_E2(80, 0xAE), CBS_E2(81, 0xA6), CBS_E2(81, 0xA7), CBS_E2(81, 0xA8), CBS_E2(81, 0xA9)};
#undef CBS_E2

// Writes the controls among `marks` (bits of `bytes + base`, leads of
// well-formed sequences: ALM's D8 and E2) after the `*found` before;
// returns 1 when `capacity` is reached (`*at` then after the last).
__attribute__((target("avx2,popcnt"))) static inline int write_marks(const uint8_t *bytes, size_t base,
                                                                    uint64_t marks, size_t *offsets,
                                                                    uint32_t *controls, size_t capacity,
                                                                    size_t *found, size_t *at) {
  // (A local count: `*found` could alias `offsets`, and be read again after each store.)
  size_t n = *found;
  while (marks) {
    size_t p = base + (size_t)__builtin_ctzll(marks);
    marks &= marks - 1;
    uint32_t control = 0x061C;
    if (bytes[p] != 0xD8) {
      uint32_t entry = three_byte_controls[bytes[p + 2] & 0x3F];
      // Another E2 sequence (a dash, a quote mark) is passed over.
      if (entry >> 16 != bytes[p + 1]) continue;
      control = entry & 0xFFFF;
    }
    offsets[n] = p;
    controls[n] = control;
    if (++n == capacity) {
      *found = n;
      *at = p + (control == 0x061C ? 2 : 3);
      return 1;
    }
  }
  *found = n;
  return 0;
}

// Decides the stops of the 32 bytes `v` at `block` (`prev`, `next`: its
// bytes one before and one after) one by one from `*at` (a sequence's
// start; the stops before it are inside sequences decided before), as
// `sequence_at` does. Returns 1 when the search is over (`*at` is then its
// end), else 0 with `*at` after the last sequence decided.
__attribute__((target("avx2,popcnt"))) static int decide_stops_avx2(const uint8_t *bytes, size_t block, __m256i v,
                                                                   __m256i prev, __m256i next, size_t *at,
                                                                   size_t count, size_t *offsets,
                                                                   uint32_t *controls, size_t capacity,
                                                                   size_t *found) {
  uint64_t mask = stops_avx2(v, prev, next);
  size_t i = *at;
  uint32_t control;
  while (mask) {
    unsigned bit = (unsigned)__builtin_ctzll(mask);
    size_t p = block + bit;
    if (p < i) {  // inside the sequence decided before
      mask &= mask - 1;
      continue;
    }
    size_t length = sequence_at(bytes, p, count, &control);
    if (length == 0) {
      *at = p;
      return 1;
    }
    i = p + length;
    mask &= ~(uint64_t)0 << (bit + length);
    if (control) {
      offsets[*found] = p;
      controls[*found] = control;
      if (++*found == capacity) {
        *at = i;
        return 1;
      }
    }
  }
  *at = i;
  return 0;
}

// The block loop of `cbs_find_bidi_controls` 64 bytes at a time, from
// `*at` (which begins a sequence). Returns 1 when the search is over
// (`*at` is then its end), 0 when the rest is left to the 16-byte loop
// (`*at` then begins a sequence). Each round starts where a sequence
// does. A block of ASCII, two-byte sequences and E2 three-byte ones (the
// continuation bytes exactly those their leads call for, the last
// sequence's looked at past the block) is passed with its controls
// written, with no sequence decided one by one; any other block has its
// stops decided (`decide_stops_avx2`). The last bytes of a text of 64
// bytes or more are the last 64, the bits before `*at` left out; when they
// are not that simple, they are left to the 16-byte loop.
__attribute__((target("avx2,popcnt"))) static int find_bidi_controls_avx2(const uint8_t *bytes, size_t *at,
                                                                          size_t count, size_t *offsets,
                                                                          uint32_t *controls, size_t capacity,
                                                                          size_t *found) {
  size_t i = *at;
  // Rounds while the block and the byte after it fit: every read stays
  // below `count` (the second byte after is read when it is below).
  size_t limit = count >= 65 ? count - 65 : 0;
  while (count >= 65 && i <= limit) {
    __m256i v0 = _mm256_loadu_si256((const __m256i *)(bytes + i));
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(bytes + i + 32));
    if (!movemask_avx2(_mm256_or_si256(v0, v1))) {
      // ASCII: the text after it tried 64 bytes at a time.
      do {
        i += 64;
      } while (i <= limit && !movemask_avx2(_mm256_or_si256(_mm256_loadu_si256((const __m256i *)(bytes + i)),
                                                            _mm256_loadu_si256((const __m256i *)(bytes + i + 32)))));
      continue;
    }
    uint64_t marks;
    unsigned over;
    const __m256i all = _mm256_set1_epi8(-1);
    int simple = !simple_block_avx2(v0, v1, _mm256_loadu_si256((const __m256i *)(bytes + i + 1)),
                                    _mm256_loadu_si256((const __m256i *)(bytes + i + 33)), all, all, &marks, &over);
    if (simple && over) {
      simple = (bytes[i + 64] & 0xC0) == 0x80 &&
               (over == 1 || (i + 66 <= count && (bytes[i + 65] & 0xC0) == 0x80));
    }
    if (simple) {
      if (marks && write_marks(bytes, i, marks, offsets, controls, capacity, found, at)) return 1;
      i += 64 + ((over + 1) >> 1);
      continue;
    }
    // Each half's stops decided; the first half's byte before is taken
    // as 0 (`i` begins a sequence).
    size_t end = i + 64;
    __m256i prev0 = _mm256_alignr_epi8(v0, _mm256_permute2x128_si256(v0, v0, 0x08), 15);
    if (decide_stops_avx2(bytes, i, v0, prev0, _mm256_loadu_si256((const __m256i *)(bytes + i + 1)), &i, count,
                          offsets, controls, capacity, found) ||
        decide_stops_avx2(bytes, end - 32, v1, _mm256_loadu_si256((const __m256i *)(bytes + end - 33)),
                          _mm256_loadu_si256((const __m256i *)(bytes + end - 31)), &i, count, offsets, controls,
                          capacity, found)) {
      *at = i;
      return 1;
    }
    // The sequence that holds `end`: a two-byte lead just before it begins it.
    if (i < end) i = bytes[end - 1] >= 0xC2 && bytes[end - 1] <= 0xDF ? end - 1 : end;
  }
  if (count < 64 || i >= count) {
    *at = i;
    return 0;
  }
  // The last 64 bytes, from `i` (at most 64 before the end): the byte
  // after them taken as 0.
  size_t last = count - 64;
  __m256i v0 = _mm256_loadu_si256((const __m256i *)(bytes + last));
  __m256i v1 = _mm256_loadu_si256((const __m256i *)(bytes + last + 32));
  if (!movemask_avx2(_mm256_or_si256(v0, v1))) {
    *at = count;
    return 1;
  }
  uint64_t marks;
  unsigned over;
  __m256i n1 = _mm256_alignr_epi8(_mm256_permute2x128_si256(v1, v1, 0x81), v1, 1);
  size_t skip = i - last;
  // Not simple, or a sequence cut off by the end: the 16-byte loop's.
  if (simple_block_avx2(v0, v1, _mm256_loadu_si256((const __m256i *)(bytes + last + 1)), n1,
                        _mm256_loadu_si256((const __m256i *)(from_ramp + 64 - skip)),
                        _mm256_loadu_si256((const __m256i *)(from_ramp + 96 - skip)), &marks, &over) ||
      over) {
    *at = i;
    return 0;
  }
  if (marks && write_marks(bytes, last, marks, offsets, controls, capacity, found, at)) return 1;
  *at = count;
  return 1;
}
#endif

CBS_HOT size_t cbs_find_bidi_controls(const uint8_t *bytes, size_t start, size_t count, size_t *offsets,
                                      uint32_t *controls, size_t capacity, size_t *end) {
  size_t found = 0, i = start;
  uint32_t control;
  if (capacity == 0) {
    *end = start;
    return 0;
  }
#if defined(__x86_64__)
  if (count >= 34 && i <= count - 34) {
    int avx2 = cbs_use_avx2();
    if (avx2 && find_bidi_controls_avx2(bytes, &i, count, offsets, controls, capacity, &found)) {
      *end = i;
      return found;
    }
  }
#endif
#if defined(__SSE2__)
  if (count >= 17 && i <= count - 17 && cbs_use_sse2()) {
    // Blocks of 16 from `start`; in each, every stop at or after `i` (the
    // bytes from `i` to it are ASCII or two-byte sequences, so it begins a
    // sequence) is decided. The first block's byte before is not looked
    // at: `start` begins a sequence.
    size_t block = i;
    __m128i v = _mm_loadu_si128((const __m128i *)(bytes + block));
    unsigned mask = (unsigned)stops(v, _mm_slli_si128(v, 1), _mm_loadu_si128((const __m128i *)(bytes + block + 1)));
    for (;;) {
      while (mask) {
        size_t p = block + (size_t)__builtin_ctz(mask);
        mask &= mask - 1;
        if (p < i) continue;  // inside the sequence decided before
        size_t length = sequence_at(bytes, p, count, &control);
        if (length == 0) {
          *end = p;
          return found;
        }
        i = p + length;
        mask &= ~0u << (p - block + length);
        if (control) {
          offsets[found] = p;
          controls[found] = control;
          if (++found == capacity) {
            *end = i;
            return found;
          }
        }
      }
      block += 16;
      if (block > count - 17) break;
      __m128i next = _mm_loadu_si128((const __m128i *)(bytes + block));
      if (!_mm_movemask_epi8(next)) {
        // An ASCII block (no stop in it): the text after it is tried 64
        // bytes at a time.
        size_t after = block + 16;
        while (after + 65 <= count) {
          __m128i any = _mm_or_si128(_mm_or_si128(_mm_loadu_si128((const __m128i *)(bytes + after)),
                                                  _mm_loadu_si128((const __m128i *)(bytes + after + 16))),
                                     _mm_or_si128(_mm_loadu_si128((const __m128i *)(bytes + after + 32)),
                                                  _mm_loadu_si128((const __m128i *)(bytes + after + 48))));
          if (_mm_movemask_epi8(any)) break;
          after += 64;
        }
        block = after - 16;  // the next round starts at `after`
        mask = 0;
        continue;
      }
      mask = (unsigned)stops(next, _mm_loadu_si128((const __m128i *)(bytes + block - 1)),
                             _mm_loadu_si128((const __m128i *)(bytes + block + 1)));
    }
    // The rest one by one, from the sequence that holds `block`: a two-byte
    // lead just before it begins that sequence.
    if (i < block) i = bytes[block - 1] >= 0xC2 && bytes[block - 1] <= 0xDF ? block - 1 : block;
  }
#endif
  while (i < count) {
    size_t length = sequence_at(bytes, i, count, &control);
    if (length == 0) break;
    if (control) {
      offsets[found] = i;
      controls[found] = control;
      if (++found == capacity) {
        i += length;
        break;
      }
    }
    i += length;
  }
  *end = i;
  return found;
}
