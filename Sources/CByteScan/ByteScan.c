#include "CByteScan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
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

size_t cbs_plain_text_prefix(const uint8_t *bytes, size_t count, size_t *line_feeds) {
  size_t i = 0;
  size_t feeds = 0;
#if defined(__SSE2__)
  // 64 bytes at a time; line feeds counted per lane (a matching lane is
  // -1, subtracted), summed before a lane can wrap.
  __m128i counts = _mm_setzero_si128();
  unsigned rounds = 0;
  for (; i + 64 <= count; i += 64) {
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
