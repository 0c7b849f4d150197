// `cbs_find_bidi_controls`' block loop with AVX-512 (F, BW, VL, VBMI2),
// the AVX2 loop's (ControlSearch.c) with one vector a block: a block's
// bits are compares into mask registers, and the controls of a simple
// block are compressed and written sixteen at a time, with no branch a
// control. The blocks that are not simple and the last one are the AVX2
// loop's (ControlSearchBlocks.h).
#include "ControlSearchBlocks.h"

#if defined(__x86_64__)
#define CBS_AVX512 "avx512f,avx512bw,avx512vl,avx512vbmi2,avx2,popcnt,bmi"

// `block_bits_avx2` for the 64 bytes `v` (`high`: their bits 80–FF).
__attribute__((target(CBS_AVX512), always_inline)) static inline struct block_bits block_bits_avx512(__m512i v,
                                                                                                    uint64_t high) {
  struct block_bits b;
  b.high = high;
  // Continuation bytes: signed, below -64. Two-byte leads: (v - C2) below 1E.
  b.cont = _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(-64));
  b.e2 = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)0xE2));
  b.leads = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8((char)0xC2)), _mm512_set1_epi8(0x1E)) | b.e2;
  return b;
}

// Writes the controls among `e2` (the E2s of a simple block at `base`, but
// those of its last two bytes) after the `*found` before, with room for
// sixteen more: the offsets and code points of all sixteen written, the
// controls counted. `next` holds the block's bytes one after each.
__attribute__((target(CBS_AVX512), always_inline)) static inline void write_e2_controls_avx512(
    const uint8_t *bytes, size_t base, uint64_t e2, __m512i next, size_t *offsets, uint32_t *controls,
    size_t *found) {
  const uint64_t first62 = ~(uint64_t)0 >> 2;
  // The bytes two after (the block's own: no read past it).
  __m512i after = _mm512_maskz_loadu_epi8(first62, (const void *)(bytes + base + 2));
  // E2 80 {8E, 8F, AA–AE} and E2 81 {A6–A9}: the third byte's range tested
  // as (byte - low) below its size.
  uint64_t e280 = _mm512_mask_cmpeq_epi8_mask(e2, next, _mm512_set1_epi8((char)0x80));
  uint64_t e281 = _mm512_mask_cmpeq_epi8_mask(e2, next, _mm512_set1_epi8((char)0x81));
  uint64_t found80 =
      _mm512_mask_cmplt_epu8_mask(e280, _mm512_sub_epi8(after, _mm512_set1_epi8((char)0x8E)), _mm512_set1_epi8(2)) |
      _mm512_mask_cmplt_epu8_mask(e280, _mm512_sub_epi8(after, _mm512_set1_epi8((char)0xAA)), _mm512_set1_epi8(5));
  uint64_t found81 =
      _mm512_mask_cmplt_epu8_mask(e281, _mm512_sub_epi8(after, _mm512_set1_epi8((char)0xA6)), _mm512_set1_epi8(4));
  uint64_t marks = found80 | found81;
  const __m512i index = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44,
                                        43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24,
                                        23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
                                        0);
  // The controls' positions in the block, in order.
  __m128i at = _mm512_castsi512_si128(_mm512_maskz_compress_epi8(marks, index));
  // Their code points' low bits: (second byte & 1) << 6 | (third byte & 3F),
  // 2000 added (2000–207F).
  __m512i low = _mm512_or_si512(_mm512_and_si512(_mm512_slli_epi16(next, 6), _mm512_set1_epi8(0x40)),
                                _mm512_and_si512(after, _mm512_set1_epi8(0x3F)));
  __m128i points = _mm512_castsi512_si128(_mm512_maskz_compress_epi8(marks, low));
  size_t n = *found;
  __m512i offset = _mm512_set1_epi64((long long)base);
  _mm512_storeu_si512((void *)(offsets + n), _mm512_add_epi64(_mm512_cvtepu8_epi64(at), offset));
  _mm512_storeu_si512((void *)(offsets + n + 8),
                      _mm512_add_epi64(_mm512_cvtepu8_epi64(_mm_srli_si128(at, 8)), offset));
  _mm512_storeu_si512((void *)(controls + n),
                      _mm512_or_si512(_mm512_cvtepu8_epi32(points), _mm512_set1_epi32(0x2000)));
  *found = n + (size_t)__builtin_popcountll(marks);
}

__attribute__((target(CBS_AVX512))) int cbs_find_bidi_controls_avx512(const uint8_t *bytes, size_t *at,
                                                                      size_t count, size_t *offsets,
                                                                      uint32_t *controls, size_t capacity,
                                                                      size_t *found) {
  const uint64_t first62 = ~(uint64_t)0 >> 2;
  size_t i = *at;
  // As in the AVX2 loop: the continuation bytes the sequence before `i`
  // calls for, and the E2s at `i - 2` and `i - 1` not yet written.
  uint64_t carry = 0, pending = 0;
  // Rounds while the block and the byte after it fit.
  size_t limit = count >= 65 ? count - 65 : 0;
  while (count >= 65 && i <= limit) {
    __m512i v = _mm512_loadu_si512((const void *)(bytes + i));
    uint64_t high = (uint64_t)_mm512_movepi8_mask(v);
    if (!carry && !high) {
      // ASCII: the text after it tried 64 bytes at a time.
      do {
        i += 64;
      } while (i <= limit && !_mm512_movepi8_mask(_mm512_loadu_si512((const void *)(bytes + i))));
      continue;
    }
    struct block_bits b = block_bits_avx512(v, high);
    if (simple_block(b, ~(uint64_t)0, carry)) {
      if (pending && write_marks(bytes, i - 2, pending, offsets, controls, capacity, found, at)) return 1;
      __m512i next = _mm512_loadu_si512((const void *)(bytes + i + 1));
      uint64_t alm = _mm512_mask_cmpeq_epi8_mask(_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)0xD8)), next,
                                                 _mm512_set1_epi8((char)0x9C));
      uint64_t e2 = b.e2 & first62;
      if (e2 | alm) {
        // At most sixteen E2s (a block holds up to 21) and room for
        // sixteen more: compressed; else one by one.
        if (!alm && __builtin_popcountll(e2) <= 16 && capacity - *found > 16) {
          write_e2_controls_avx512(bytes, i, e2, next, offsets, controls, found);
        } else if (write_block_marks(bytes, i, e2, alm, offsets, controls, capacity, found, at)) {
          return 1;
        }
      }
      pending = b.e2 >> 62;
      carry = carry_after(b);
      i += 64;
      continue;
    }
    int decided = decide_block_avx2(bytes, &i, count, limit, carry, pending, offsets, controls, capacity, found, at);
    if (decided > 0) return 1;
    carry = pending = 0;
    if (decided < 0) break;
  }
  return search_last_block_avx2(bytes, i, count, carry, pending, offsets, controls, capacity, found, at);
}
#endif
