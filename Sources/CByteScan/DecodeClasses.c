// `cbs_decode_classes`: UTF-8 decoded into scalar values and Bidi_Class
// bytes 64 bytes a round with AVX-512 (F, BW, VL, VBMI2), for the texts of
// most right-to-left scripts: ASCII, well-formed two-byte sequences and
// U+2000…U+207F (E2 80 xx, E2 81 xx: the bidi controls but ALM, spaces,
// dashes, quotation marks). Any other sequence is left to the caller's
// decoder (`UTF8Decoder`), whose results these are, sequence for sequence
// (`DecodeClassesTests`).
#include "CByteScan.h"
#include "VectorLevel.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define CBS_AVX512_DECODE "avx512f,avx512bw,avx512vl,avx512vbmi2,bmi,bmi2,popcnt"

// The bytes of `bytes[from..<count]` up to 64, the bytes past `count` read
// as 0 (not read at all).
__attribute__((target(CBS_AVX512_DECODE), always_inline)) static inline __m512i load_up_to(const uint8_t *bytes,
                                                                                          size_t from, size_t count) {
  size_t rest = from < count ? count - from : 0;
  __mmask64 valid = rest >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << rest) - 1;
  return _mm512_maskz_loadu_epi8(valid, (const void *)(bytes + from));
}

// Decodes the `k` characters whose bytes start the lanes of `first`,
// `second` and `third` (a character's first three bytes, compressed), and
// stores them from `scalars[i]` and `classes[i]` on, the brackets among
// them from `brackets[*bracket_count]` on; ORs their classes' bits into
// `*bits`.
__attribute__((target(CBS_AVX512_DECODE), always_inline)) static inline void store_characters(
    const uint8_t *first, const uint8_t *second, const uint8_t *third, size_t k, size_t i, uint32_t *scalars,
    uint8_t *classes, int32_t *brackets, size_t *bracket_count, __m512i *bits, const uint8_t *properties,
    uint32_t general_punctuation) {
  const __m512i lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  for (size_t g = 0; g < k; g += 16) {
    __mmask16 live = k - g >= 16 ? 0xFFFF : (__mmask16)((1u << (k - g)) - 1);
    __m512i b0 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(first + g)));
    __m512i b1 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(second + g)));
    __m512i b2 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(third + g)));
    __mmask16 ascii = _mm512_cmplt_epu32_mask(b0, _mm512_set1_epi32(0x80));
    __mmask16 three = _mm512_cmpeq_epi32_mask(b0, _mm512_set1_epi32(0xE2));
    // Two bytes: (b0 & 1F) << 6 | (b1 & 3F). E2 8x: (b1 & 1) << 6 | (b2 & 3F),
    // in the block of U+2000 (2000 added to the value, the block's start in
    // the properties to the index).
    __m512i two = _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(b0, _mm512_set1_epi32(0x1F)), 6),
                                  _mm512_and_si512(b1, _mm512_set1_epi32(0x3F)));
    __m512i low = _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(b1, _mm512_set1_epi32(1)), 6),
                                  _mm512_and_si512(b2, _mm512_set1_epi32(0x3F)));
    __m512i value = _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(two, ascii, b0), three,
                                          _mm512_or_si512(low, _mm512_set1_epi32(0x2000)));
    __m512i index = _mm512_mask_mov_epi32(value, three,
                                          _mm512_add_epi32(low, _mm512_set1_epi32((int)general_punctuation)));
    // The property bytes (read four at a time: the tables go on past each).
    __m512i property = _mm512_and_si512(
        _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), live, index, (const void *)properties, 1),
        _mm512_set1_epi32(0xFF));
    __m512i class = _mm512_and_si512(property, _mm512_set1_epi32(0x1F));
    _mm512_mask_storeu_epi32((void *)(scalars + i + g), live, value);
    _mm_mask_storeu_epi8((void *)(classes + i + g), live, _mm512_cvtepi32_epi8(class));
    *bits = _mm512_or_si512(*bits, _mm512_maskz_sllv_epi32(live, _mm512_set1_epi32(1), class));
    // Paired brackets (Bidi_Paired_Bracket_Type, bits 5-6): their positions.
    __mmask16 bracket = _mm512_mask_test_epi32_mask(live, property, _mm512_set1_epi32(0x60));
    if (bracket) {
      unsigned n = (unsigned)__builtin_popcount(bracket);
      __m512i at = _mm512_maskz_compress_epi32(bracket, _mm512_add_epi32(lanes, _mm512_set1_epi32((int)(i + g))));
      _mm512_mask_storeu_epi32((void *)(brackets + *bracket_count), (__mmask16)((1u << n) - 1), at);
      *bracket_count += n;
    }
  }
}

__attribute__((target(CBS_AVX512_DECODE))) static size_t decode_avx512(
    const uint8_t *bytes, size_t count, size_t *at, size_t index, uint32_t *scalars, uint8_t *classes,
    int32_t *brackets, size_t *bracket_count, uint32_t *class_bits, const uint8_t *properties,
    uint32_t general_punctuation) {
  size_t b = *at, i = index;
  __m512i bits = _mm512_setzero_si512();
  // The first three bytes of each character of a round, compressed.
  uint8_t first[64], second[64], third[64];
  while (b < count) {
    __m512i v = load_up_to(bytes, b, count);
    __m512i next = load_up_to(bytes, b + 1, count);
    __m512i after = load_up_to(bytes, b + 2, count);
    size_t rest = count - b;
    __mmask64 valid = rest >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << rest) - 1;
    // A byte past the text reads as 0, never a continuation byte.
    __mmask64 next_continues = _mm512_cmplt_epi8_mask(next, _mm512_set1_epi8(-64));
    __mmask64 after_continues = _mm512_cmplt_epi8_mask(after, _mm512_set1_epi8(-64));
    __mmask64 ascii = ~_mm512_movepi8_mask(v) & valid;
    __mmask64 two =
        _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8((char)0xC2)), _mm512_set1_epi8(0x1E)) &
        next_continues;
    __mmask64 three = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)0xE2)) &
                      _mm512_cmpeq_epi8_mask(_mm512_and_si512(next, _mm512_set1_epi8((char)0xFE)),
                                             _mm512_set1_epi8((char)0x80)) &
                      after_continues;
    __mmask64 starts = ascii | two | three;
    __mmask64 continuations = two << 1 | three << 1 | three << 2;
    // Every byte starts a sequence of these or continues one; the first
    // that does neither (or lies past the text) ends the round.
    __mmask64 other = ~(starts | continuations);
    unsigned stop = other ? (unsigned)__builtin_ctzll(other) : 64;
    __mmask64 taken = stop == 64 ? starts : starts & (((__mmask64)1 << stop) - 1);
    size_t k = (size_t)__builtin_popcountll(taken);
    if (k == 0) break;
    _mm512_storeu_si512((void *)first, _mm512_maskz_compress_epi8(taken, v));
    _mm512_storeu_si512((void *)second, _mm512_maskz_compress_epi8(taken, next));
    _mm512_storeu_si512((void *)third, _mm512_maskz_compress_epi8(taken, after));
    store_characters(first, second, third, k, i, scalars, classes, brackets, bracket_count, &bits, properties,
                     general_punctuation);
    i += k;
    if (stop < 64) {
      b += stop;
      break;
    }
    // On past the sequence the round's last byte starts or continues.
    b += 64 + (size_t)(two >> 63 | (three >> 62 & 1) | (three >> 63) << 1);
  }
  *at = b;
  *class_bits |= (uint32_t)_mm512_reduce_or_epi32(bits);
  return i - index;
}
#endif

int cbs_vector_decode(void) {
#if defined(__x86_64__)
  return cbs_use_avx512();
#else
  return 0;
#endif
}

size_t cbs_decode_classes(const uint8_t *bytes, size_t count, size_t *at, size_t index, uint32_t *scalars,
                          uint8_t *classes, int32_t *brackets, size_t *bracket_count, uint32_t *class_bits,
                          const uint8_t *properties, uint32_t general_punctuation) {
#if defined(__x86_64__)
  if (cbs_use_avx512())
    return decode_avx512(bytes, count, at, index, scalars, classes, brackets, bracket_count, class_bits, properties,
                         general_punctuation);
#endif
  return 0;
}
