#include "CByteScan.h"
#include "VectorLevel.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

static inline int is_plain(uint8_t b) { return (b >= 0x20 && b < 0x7F) || b == 0x09 || b == 0x0A; }

#if defined(__SSE2__)
// 0xFF in each byte of `v` that is printable ASCII, a tab or a line feed.
static inline __m128i plain_bytes(__m128i v, __m128i *is_lf) {
  // Signed compares: bytes >= 0x80 are negative and fail `> 0x1F`.
  __m128i printable = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x1F)), _mm_cmplt_epi8(v, _mm_set1_epi8(0x7F)));
  *is_lf = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x0A));
  return _mm_or_si128(_mm_or_si128(printable, *is_lf), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x09)));
}

// The sum of the 16 byte lanes of `counts`.
static inline size_t lane_sum(__m128i counts) {
  __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
  return (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
}
#endif

#if defined(__x86_64__)
// The AVX2 version, 128 bytes at a time, for the processors that have it
// (chosen at run time: the package is built for baseline x86-64).
__attribute__((target("avx2"))) static inline __m256i plain_bytes_avx2(__m256i v, __m256i *is_lf) {
  // (v - 0x20) below 0x5F as unsigned: signed after moving the range down
  // by 0x80. Tab and line feed: (v - 0x09) below 2.
  __m256i printable = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x5F - 0x80)),
                                        _mm256_sub_epi8(v, _mm256_set1_epi8((char)(0x20 + 0x80))));
  __m256i tab_or_lf = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(2 - 0x80)),
                                        _mm256_sub_epi8(v, _mm256_set1_epi8((char)(0x09 + 0x80))));
  *is_lf = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x0A));
  return _mm256_or_si256(printable, tab_or_lf);
}

CBS_HOT __attribute__((target("avx2"))) static size_t plain_text_prefix_avx2(const uint8_t *bytes, size_t count,
                                                                              size_t *line_feeds) {
  size_t i = 0;
  size_t feeds = 0;
  // Line feeds counted per lane (a matching lane is -1, subtracted), summed
  // before a lane can wrap.
  __m256i counts = _mm256_setzero_si256();
  unsigned rounds = 0;
  for (; i + 128 <= count; i += 128) {
    __m256i lf0, lf1, lf2, lf3;
    __m256i ok = _mm256_and_si256(
        _mm256_and_si256(plain_bytes_avx2(_mm256_loadu_si256((const __m256i *)(bytes + i)), &lf0),
                         plain_bytes_avx2(_mm256_loadu_si256((const __m256i *)(bytes + i + 32)), &lf1)),
        _mm256_and_si256(plain_bytes_avx2(_mm256_loadu_si256((const __m256i *)(bytes + i + 64)), &lf2),
                         plain_bytes_avx2(_mm256_loadu_si256((const __m256i *)(bytes + i + 96)), &lf3)));
    if (_mm256_movemask_epi8(ok) != -1) break;
    counts = _mm256_sub_epi8(counts, _mm256_add_epi8(_mm256_add_epi8(lf0, lf1), _mm256_add_epi8(lf2, lf3)));
    if (++rounds == 63) {
      __m256i sums = _mm256_sad_epu8(counts, _mm256_setzero_si256());
      feeds += (size_t)_mm256_extract_epi64(sums, 0) + (size_t)_mm256_extract_epi64(sums, 1) +
               (size_t)_mm256_extract_epi64(sums, 2) + (size_t)_mm256_extract_epi64(sums, 3);
      counts = _mm256_setzero_si256();
      rounds = 0;
    }
  }
  __m256i sums = _mm256_sad_epu8(counts, _mm256_setzero_si256());
  feeds += (size_t)_mm256_extract_epi64(sums, 0) + (size_t)_mm256_extract_epi64(sums, 1) +
           (size_t)_mm256_extract_epi64(sums, 2) + (size_t)_mm256_extract_epi64(sums, 3);
  *line_feeds = feeds;
  return i;
}

#endif

CBS_HOT size_t cbs_plain_text_prefix(const uint8_t *bytes, size_t count, size_t *line_feeds) {
  size_t i = 0;
  size_t feeds = 0;
#if defined(__x86_64__)
  int avx2 = cbs_use_avx2();
  if (avx2) {
    i = plain_text_prefix_avx2(bytes, count, &feeds);
    if (i + 128 <= count) {
      // Stopped at a block with another byte: the rest byte by byte.
      for (; i < count && is_plain(bytes[i]); i++) feeds += bytes[i] == 0x0A;
      *line_feeds = feeds;
      return i;
    }
  }
#endif
#if defined(__SSE2__)
  // 64 bytes at a time; line feeds counted per lane (a matching lane is
  // -1, subtracted), summed before a lane can wrap.
  __m128i counts = _mm_setzero_si128();
  unsigned rounds = 0;
  size_t sse2_end = cbs_use_sse2() ? count : 0;
  for (; i + 64 <= sse2_end; i += 64) {
    __m128i lf0, lf1, lf2, lf3;
    __m128i ok = _mm_and_si128(
        _mm_and_si128(plain_bytes(_mm_loadu_si128((const __m128i *)(bytes + i)), &lf0),
                      plain_bytes(_mm_loadu_si128((const __m128i *)(bytes + i + 16)), &lf1)),
        _mm_and_si128(plain_bytes(_mm_loadu_si128((const __m128i *)(bytes + i + 32)), &lf2),
                      plain_bytes(_mm_loadu_si128((const __m128i *)(bytes + i + 48)), &lf3)));
    if (_mm_movemask_epi8(ok) != 0xFFFF) break;
    counts = _mm_sub_epi8(counts, _mm_add_epi8(_mm_add_epi8(lf0, lf1), _mm_add_epi8(lf2, lf3)));
    if (++rounds == 63) {
      feeds += lane_sum(counts);
      counts = _mm_setzero_si128();
      rounds = 0;
    }
  }
  feeds += lane_sum(counts);
#endif
  for (; i < count && is_plain(bytes[i]); i++) feeds += bytes[i] == 0x0A;
  *line_feeds = feeds;
  return i;
}

CBS_HOT size_t cbs_plain_line_prefix(const uint8_t *bytes, size_t count) {
  size_t i = 0;
#if defined(__SSE2__)
  if (count >= 16 && cbs_use_sse2()) {
    __m128i is_lf;
    for (; i + 16 <= count; i += 16) {
      unsigned mask = (unsigned)_mm_movemask_epi8(plain_bytes(_mm_loadu_si128((const __m128i *)(bytes + i)), &is_lf));
      if (mask != 0xFFFF) return i + (size_t)__builtin_ctz(~mask);
    }
    if (i == count) return i;
    // The last bytes as the (overlapping) last 16: those before `i` are
    // plain already.
    size_t last = count - 16;
    unsigned mask = (unsigned)_mm_movemask_epi8(plain_bytes(_mm_loadu_si128((const __m128i *)(bytes + last)), &is_lf));
    return mask == 0xFFFF ? count : last + (size_t)__builtin_ctz(~mask);
  }
#endif
  while (i < count && is_plain(bytes[i])) i++;
  return i;
}

#if defined(__x86_64__)
// The block loop of `cbs_well_formed_line`, 32 bytes at a time from `*at`.
// Returns 1 at a line break (`*at` is then on it), 0 when fewer than 32
// bytes are left (`*at` is where the rest begins).
__attribute__((target("avx2,popcnt"))) static int well_formed_line_avx2(const uint8_t *bytes, size_t *at,
                                                                        size_t count, size_t *continuations,
                                                                        size_t *four_byte_leads) {
  size_t i = *at, tails = 0, fours = 0;
  for (; i + 32 <= count; i += 32) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(bytes + i));
    uint32_t breaks = (uint32_t)_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x0A)), _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x0D))));
    uint32_t tail = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_and_si256(v, _mm256_set1_epi8((char)0xC0)), _mm256_set1_epi8((char)0x80)));
    uint32_t four =
        (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8((char)0xF0)), v));
    if (breaks) {
      unsigned at_break = (unsigned)__builtin_ctz(breaks);
      uint32_t before = at_break == 0 ? 0 : 0xFFFFFFFFu >> (32 - at_break);
      *continuations += tails + (size_t)__builtin_popcount(tail & before);
      *four_byte_leads += fours + (size_t)__builtin_popcount(four & before);
      *at = i + at_break;
      return 1;
    }
    tails += (size_t)__builtin_popcount(tail);
    fours += (size_t)__builtin_popcount(four);
  }
  *continuations += tails;
  *four_byte_leads += fours;
  *at = i;
  return 0;
}
#endif

size_t cbs_well_formed_line(const uint8_t *bytes, size_t start, size_t count, size_t *continuations,
                            size_t *four_byte_leads) {
  size_t i = start, tails = 0, fours = 0;
  *continuations = 0;
  *four_byte_leads = 0;
#if defined(__x86_64__)
  int avx2 = cbs_use_avx2();
  if (avx2 && well_formed_line_avx2(bytes, &i, count, continuations, four_byte_leads)) return i;
#endif
#if defined(__SSE2__)
  size_t sse2_end = cbs_use_sse2() ? count : 0;
  for (; i + 16 <= sse2_end; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(bytes + i));
    unsigned breaks = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x0A)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x0D))));
    unsigned tail = (unsigned)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xC0)), _mm_set1_epi8((char)0x80)));
    unsigned four = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8((char)0xF0)), v));
    if (breaks) {
      unsigned before = (1u << __builtin_ctz(breaks)) - 1;
      tail &= before;
      four &= before;
      i += (size_t)__builtin_ctz(breaks);
      *continuations += tails + (size_t)__builtin_popcount(tail);
      *four_byte_leads += fours + (size_t)__builtin_popcount(four);
      return i;
    }
    tails += (size_t)__builtin_popcount(tail);
    fours += (size_t)__builtin_popcount(four);
  }
#endif
  for (; i < count; i++) {
    uint8_t b = bytes[i];
    if (b == 0x0A || b == 0x0D) break;
    tails += (b & 0xC0) == 0x80;
    fours += b >= 0xF0;
  }
  *continuations += tails;
  *four_byte_leads += fours;
  return i;
}

size_t cbs_count_byte(const uint8_t *bytes, size_t count, uint8_t byte) {
  size_t total = 0, i = 0;
#if defined(__SSE2__)
  const __m128i target = _mm_set1_epi8((char)byte);
  const __m128i zero = _mm_setzero_si128();
  size_t sse2_end = cbs_use_sse2() ? count : 0;
  while (i + 16 <= sse2_end) {
    // A matching lane is -1: subtracted, each lane counts up to 252 in 63
    // rounds of 64 bytes (then of 16) before the lanes are summed.
    __m128i lanes = zero;
    size_t end = count - i > 64 * 63 ? i + 64 * 63 : count;
    for (; i + 64 <= end; i += 64) {
      __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + i)), target);
      __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + i + 16)), target);
      __m128i c = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + i + 32)), target);
      __m128i d = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + i + 48)), target);
      lanes = _mm_sub_epi8(lanes, _mm_add_epi8(_mm_add_epi8(a, b), _mm_add_epi8(c, d)));
    }
    for (; i + 16 <= end; i += 16) {
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + i)), target));
    }
    __m128i sums = _mm_sad_epu8(lanes, zero);
    total += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
  }
#endif
  for (; i < count; i++) total += bytes[i] == byte;
  return total;
}

#if defined(__x86_64__)
// `cbs_count_line_feeds` 64 bytes at a time: the line feeds counted by a
// popcount of a compare's mask, the carriage returns' masks ORed.
__attribute__((target("avx512f,avx512bw,popcnt"))) static size_t count_line_feeds_avx512(const uint8_t *bytes,
                                                                                      size_t count,
                                                                                      int *carriage_return) {
  const __m512i lf = _mm512_set1_epi8(0x0A), cr = _mm512_set1_epi8(0x0D);
  size_t total = 0, i = 0;
  __mmask64 returns = 0;
  for (; i + 64 <= count; i += 64) {
    __m512i v = _mm512_loadu_si512((const void *)(bytes + i));
    total += (size_t)__builtin_popcountll(_mm512_cmpeq_epi8_mask(v, lf));
    returns |= _mm512_cmpeq_epi8_mask(v, cr);
  }
  if (i < count) {
    __mmask64 rest = ((__mmask64)1 << (count - i)) - 1;
    __m512i v = _mm512_maskz_loadu_epi8(rest, (const void *)(bytes + i));
    total += (size_t)__builtin_popcountll(_mm512_mask_cmpeq_epi8_mask(rest, v, lf));
    returns |= _mm512_mask_cmpeq_epi8_mask(rest, v, cr);
  }
  *carriage_return = returns != 0;
  return total;
}
#endif

size_t cbs_count_line_feeds(const uint8_t *bytes, size_t count, int *carriage_return) {
#if defined(__x86_64__)
  if (cbs_use_avx512()) return count_line_feeds_avx512(bytes, count, carriage_return);
#endif
  *carriage_return = count > 0 && memchr(bytes, 0x0D, count) != NULL;
  return cbs_count_byte(bytes, count, 0x0A);
}
