// `cbs_find_bidi_controls`: the search for bidi controls of the hazard
// scan, 16 bytes at a time with SSE2, 64 a round with AVX2 or AVX-512
// (ControlSearchAVX512.c); what the block loops share is in
// ControlSearchBlocks.h.
#include "ControlSearchBlocks.h"

#if defined(__SSE2__)
#include <emmintrin.h>
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

#if defined(__x86_64__)
// The block loop of `cbs_find_bidi_controls` 64 bytes at a time, from
// `*at` (which begins a sequence). Returns 1 when the search is over
// (`*at` is then its end), 0 when the rest is left to the 16-byte loop
// (`*at` then begins a sequence). A block of ASCII, two-byte sequences and
// E2 three-byte ones (`simple_block`: told from 64-bit masks of its bytes,
// the continuation bytes its last sequence calls for carried to the next
// block) is passed with its controls written, with no sequence decided one
// by one; an E2 in its last two bytes is written once the next block has
// shown its continuation bytes. Any other block has its stops decided
// (`decide_stops_avx2`) from the first sequence that starts in it, or from
// the one the block before left open when that is ill-formed. The last
// bytes of a text of 64 bytes or more are the last 64, the bits before
// `*at` left out; when they are not that simple, they are left to the
// 16-byte loop.
__attribute__((target("avx2,popcnt,bmi"))) static int find_bidi_controls_avx2(const uint8_t *bytes, size_t *at,
                                                                              size_t count, size_t *offsets,
                                                                              uint32_t *controls, size_t capacity,
                                                                              size_t *found) {
  const uint64_t first62 = ~(uint64_t)0 >> 2;
  size_t i = *at;
  // The continuation bytes the sequence before `i` calls for at `i` (bit
  // 0) and `i + 1` (bit 1), 0 when `i` begins a sequence; the E2s at
  // `i - 2` (bit 0) and `i - 1` (bit 1) not yet written.
  uint64_t carry = 0, pending = 0;
  // Rounds while the block and the byte after it fit: every read stays
  // below `count`.
  size_t limit = count >= 65 ? count - 65 : 0;
  while (count >= 65 && i <= limit) {
    __m256i v0 = _mm256_loadu_si256((const __m256i *)(bytes + i));
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(bytes + i + 32));
    if (!carry && !movemask_avx2(_mm256_or_si256(v0, v1))) {
      // ASCII: the text after it tried 64 bytes at a time.
      do {
        i += 64;
      } while (i <= limit && !movemask_avx2(_mm256_or_si256(_mm256_loadu_si256((const __m256i *)(bytes + i)),
                                                            _mm256_loadu_si256((const __m256i *)(bytes + i + 32)))));
      continue;
    }
    struct block_bits b = block_bits_avx2(v0, v1);
    if (simple_block(b, ~(uint64_t)0, carry)) {
      if (pending && write_marks(bytes, i - 2, pending, offsets, controls, capacity, found, at)) return 1;
      uint64_t alm = alm_bits_avx2(v0, v1, _mm256_loadu_si256((const __m256i *)(bytes + i + 1)),
                                   _mm256_loadu_si256((const __m256i *)(bytes + i + 33)));
      if (((b.e2 & first62) | alm) &&
          write_block_marks(bytes, i, b.e2 & first62, alm, offsets, controls, capacity, found, at))
        return 1;
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
    int searched = cbs_use_avx512()
                       ? cbs_find_bidi_controls_avx512(bytes, &i, count, offsets, controls, capacity, &found)
                       : cbs_use_avx2() && find_bidi_controls_avx2(bytes, &i, count, offsets, controls, capacity, &found);
    if (searched) {
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
