// What the block loops of `cbs_find_bidi_controls` share (AVX2 in
// ControlSearch.c, AVX-512 in ControlSearchAVX512.c): the decoding of the
// sequences they stop at, a block's bits, the writing of the controls
// found, the blocks that are not simple and the last one. (Private to the
// module.)
#ifndef CBS_CONTROL_SEARCH_BLOCKS_H
#define CBS_CONTROL_SEARCH_BLOCKS_H

#include "CByteScan.h"
#include "VectorLevel.h"

#if defined(__x86_64__)
#include <immintrin.h>
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

// The 64 bits of the bytes of `a` and `b` (64 bytes) whose top bit is set.
__attribute__((target("avx2"))) static inline uint64_t bits64_avx2(__m256i a, __m256i b) {
  return (uint64_t)movemask_avx2(a) | (uint64_t)movemask_avx2(b) << 32;
}

// The bits of a block of 64 bytes (`v0`, `v1`) as a search of text made of
// ASCII, two-byte sequences and E2 three-byte ones sees it (one bit a
// byte, bit 0 the first): `high` its bytes 80–FF, `cont` its continuation
// bytes (80–BF), `leads` the leads of two-byte sequences (C2–DF) and E2,
// `e2` the E2s.
struct block_bits {
  uint64_t high, cont, leads, e2;
};

__attribute__((target("avx2"))) static inline struct block_bits block_bits_avx2(__m256i v0, __m256i v1) {
  struct block_bits b;
  // Continuation bytes: signed, below -64. Two-byte leads: (v - C2) below
  // 1E as unsigned, signed after moving the range down by 0x80.
  const __m256i below = _mm256_set1_epi8(-64), shift = _mm256_set1_epi8((char)(0xC2 + 0x80)),
                span = _mm256_set1_epi8((char)(0x1E - 0x80)), e2 = _mm256_set1_epi8((char)0xE2);
  __m256i e0 = _mm256_cmpeq_epi8(v0, e2), e1 = _mm256_cmpeq_epi8(v1, e2);
  b.high = bits64_avx2(v0, v1);
  b.cont = bits64_avx2(_mm256_cmpgt_epi8(below, v0), _mm256_cmpgt_epi8(below, v1));
  b.e2 = bits64_avx2(e0, e1);
  b.leads = bits64_avx2(_mm256_cmpgt_epi8(span, _mm256_sub_epi8(v0, shift)),
                        _mm256_cmpgt_epi8(span, _mm256_sub_epi8(v1, shift))) |
            b.e2;
  return b;
}

// Whether a block of `block_bits` (the bits from `keep` on; `carry`: the
// continuation bytes the sequence before calls for at its first two bytes,
// bits 0 and 1) is simple: its continuation bytes exactly the one after
// each two-byte lead or E2 and the two after each E2 (those past the block
// left out) and no other byte above 7F.
static inline int simple_block(struct block_bits b, uint64_t keep, uint64_t carry) {
  uint64_t want = ((b.leads << 1 | b.e2 << 2) & keep) | carry;
  return ((want ^ b.cont) | (b.high & ~(b.cont | b.leads))) == 0;
}

// The continuation bytes the last sequence of a simple block calls for
// past it: bit 0 the first, bit 1 the second (`simple_block`'s `carry`).
static inline uint64_t carry_after(struct block_bits b) { return b.leads >> 63 | b.e2 >> 62; }

// The bits of ALM's leads (D8 before 9C) in the 64 bytes `v0`, `v1`
// (`n0`, `n1`: the bytes one after each).
__attribute__((target("avx2"))) static inline uint64_t alm_bits_avx2(__m256i v0, __m256i v1, __m256i n0, __m256i n1) {
  const __m256i d8 = _mm256_set1_epi8((char)0xD8), x9c = _mm256_set1_epi8((char)0x9C);
  return bits64_avx2(_mm256_and_si256(_mm256_cmpeq_epi8(v0, d8), _mm256_cmpeq_epi8(n0, x9c)),
                     _mm256_and_si256(_mm256_cmpeq_epi8(v1, d8), _mm256_cmpeq_epi8(n1, x9c)));
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

// `write_marks` for marks that are all E2s, with room for each (no test of
// the capacity, none for ALM): writes the controls among them
// after the `n` before; returns the new count. The first four without a
// branch each: a block of text dense with controls holds one to four, a
// number the processor cannot foretell, and a loop over them mispredicted
// its end in most blocks. Each of the four is written whether it is a
// control or not (or a mark at all: then the block's first byte stands
// for it), and counted only if it is one: the writes stay below the
// capacity, as the marks do.
__attribute__((target("avx2,popcnt,bmi"), always_inline)) static inline size_t write_e2_marks(const uint8_t *bytes, size_t base,
                                                                              uint64_t marks, size_t *offsets,
                                                                              uint32_t *controls, size_t n) {
#define CBS_WRITE_E2_MARK()                                                                       \
  {                                                                                               \
    size_t p = base + ((size_t)_tzcnt_u64(marks) & 63);                                           \
    uint32_t entry = three_byte_controls[bytes[p + 2] & 0x3F];                                    \
    offsets[n] = p;                                                                               \
    controls[n] = entry & 0xFFFF;                                                                 \
    n += (size_t)((marks != 0) & (entry >> 16 == bytes[p + 1]));                                  \
    marks &= marks - 1;                                                                           \
  }
  CBS_WRITE_E2_MARK()
  CBS_WRITE_E2_MARK()
  CBS_WRITE_E2_MARK()
  CBS_WRITE_E2_MARK()
#undef CBS_WRITE_E2_MARK
  while (marks) {
    size_t p = base + (size_t)__builtin_ctzll(marks);
    marks &= marks - 1;
    uint32_t entry = three_byte_controls[bytes[p + 2] & 0x3F];
    // Another E2 sequence (a dash, a quote mark) is passed over.
    if (entry >> 16 != bytes[p + 1]) continue;
    offsets[n] = p;
    controls[n] = entry & 0xFFFF;
    n++;
  }
  return n;
}

// Writes the controls among `marks` (E2s and ALM's leads of a simple
// block at `base`), as `write_marks`, the common case (no ALM, more room
// than marks: the capacity is not reached) by `write_e2_marks`; returns 1 when `capacity` is reached.
__attribute__((target("avx2,popcnt,bmi"), always_inline)) static inline int write_block_marks(const uint8_t *bytes, size_t base,
                                                                              uint64_t e2, uint64_t alm,
                                                                              size_t *offsets, uint32_t *controls,
                                                                              size_t capacity, size_t *found,
                                                                              size_t *at) {
  if (!alm && (size_t)__builtin_popcountll(e2) < capacity - *found) {
    if (e2) *found = write_e2_marks(bytes, base, e2, offsets, controls, *found);
    return 0;
  }
  return write_marks(bytes, base, e2 | alm, offsets, controls, capacity, found, at);
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

// Whether the sequence that the bytes before `i` leave open (`carry`, as
// `carry_after` gives it: 1 or 3) is whole: its continuation bytes from
// `i` on are there, below `count`.
static inline int carried_whole(const uint8_t *bytes, size_t i, size_t count, uint64_t carry) {
  return i < count && (bytes[i] & 0xC0) == 0x80 &&
         (carry == 1 || (i + 1 < count && (bytes[i + 1] & 0xC0) == 0x80));
}

// Moves `*i` (where a block that is not simple starts, after a simple one
// that left a sequence open: `carry`) to where its stops are decided: past
// that sequence when it is whole, its E2 (`pending`) then written, else to
// its lead, just before `*i` (C2–DF or E2) or an E2 two bytes before.
// Returns 1 when `capacity` is reached (`*at` then after the last).
__attribute__((target("avx2,popcnt,bmi"))) static inline int settle_carried(const uint8_t *bytes, size_t *i,
                                                                           size_t count, uint64_t carry,
                                                                           uint64_t pending, size_t *offsets,
                                                                           uint32_t *controls, size_t capacity,
                                                                           size_t *found, size_t *at) {
  if (!carried_whole(bytes, *i, count, carry)) {
    *i -= bytes[*i - 1] >= 0xC2 ? 1 : 2;
    return 0;
  }
  if (pending && write_marks(bytes, *i - 2, pending, offsets, controls, capacity, found, at)) return 1;
  *i += carry == 3 ? 2 : 1;
  return 0;
}

// A block at `*i` that is not simple (the bytes before it left `carry`
// open, their E2s `pending` not yet written): its stops decided
// (`decide_stops_avx2`) from the first sequence that starts in it, or from
// the one the block before left open when that is ill-formed. Returns 1
// when the search is over (`*at` then its end), -1 when the sequence left
// open moved `*i` past `limit` (the rest is the last block's), else 0 with
// `*i` at the sequence that holds the block's end.
__attribute__((target("avx2,popcnt,bmi"), always_inline)) static inline int decide_block_avx2(
    const uint8_t *bytes, size_t *i, size_t count, size_t limit, uint64_t carry, uint64_t pending, size_t *offsets,
    uint32_t *controls, size_t capacity, size_t *found, size_t *at) {
  if (carry) {
    if (settle_carried(bytes, i, count, carry, pending, offsets, controls, capacity, found, at)) return 1;
    if (*i > limit) return -1;
  }
  // Each half's stops decided; the first half's byte before is taken as 0
  // (`*i` begins a sequence).
  size_t block = *i, end = block + 64;
  __m256i v0 = _mm256_loadu_si256((const __m256i *)(bytes + block));
  __m256i v1 = _mm256_loadu_si256((const __m256i *)(bytes + end - 32));
  __m256i prev0 = _mm256_alignr_epi8(v0, _mm256_permute2x128_si256(v0, v0, 0x08), 15);
  if (decide_stops_avx2(bytes, block, v0, prev0, _mm256_loadu_si256((const __m256i *)(bytes + block + 1)), i, count,
                        offsets, controls, capacity, found) ||
      decide_stops_avx2(bytes, end - 32, v1, _mm256_loadu_si256((const __m256i *)(bytes + end - 33)),
                        _mm256_loadu_si256((const __m256i *)(bytes + end - 31)), i, count, offsets, controls,
                        capacity, found)) {
    *at = *i;
    return 1;
  }
  // The sequence that holds `end`: a two-byte lead just before it begins it.
  if (*i < end) *i = bytes[end - 1] >= 0xC2 && bytes[end - 1] <= 0xDF ? end - 1 : end;
  return 0;
}

// The end of the block loops: the last bytes of a text of 64 bytes or
// more, from `i` (a sequence's start at most 64 before the end; `carry`
// and `pending` as the loop left them), are the last 64, the bits before
// `i` left out; when they are not simple, they are left to the 16-byte
// loop. Returns as the loops do.
__attribute__((target("avx2,popcnt,bmi"))) static inline int search_last_block_avx2(
    const uint8_t *bytes, size_t i, size_t count, uint64_t carry, uint64_t pending, size_t *offsets,
    uint32_t *controls, size_t capacity, size_t *found, size_t *at) {
  if (count < 64 || i >= count) {
    *at = i;
    return 0;
  }
  // The byte after the last 64 is taken as 0.
  size_t last = count - 64;
  size_t skip = i - last;
  uint64_t keep = ~(uint64_t)0 << skip;
  __m256i v0 = _mm256_loadu_si256((const __m256i *)(bytes + last));
  __m256i v1 = _mm256_loadu_si256((const __m256i *)(bytes + last + 32));
  struct block_bits b = block_bits_avx2(v0, v1);
  b.high &= keep;
  b.cont &= keep;
  b.leads &= keep;
  b.e2 &= keep;
  // Not simple, a sequence cut off by the end, or one the bytes before
  // call for past it: the 16-byte loop's, from the first sequence that
  // starts here (or from the one left open, when it is ill-formed).
  if (!simple_block(b, keep, carry << skip) || carry_after(b) || (carry << skip) >> skip != carry) {
    if (carry && settle_carried(bytes, &i, count, carry, pending, offsets, controls, capacity, found, at)) return 1;
    *at = i;
    return 0;
  }
  if (pending && write_marks(bytes, i - 2, pending, offsets, controls, capacity, found, at)) return 1;
  if (b.high) {
    __m256i n1 = _mm256_alignr_epi8(_mm256_permute2x128_si256(v1, v1, 0x81), v1, 1);
    uint64_t alm = alm_bits_avx2(v0, v1, _mm256_loadu_si256((const __m256i *)(bytes + last + 1)), n1) & keep;
    if ((b.e2 | alm) && write_block_marks(bytes, last, b.e2, alm, offsets, controls, capacity, found, at)) return 1;
  }
  *at = count;
  return 1;
}

// `cbs_find_bidi_controls`' block loop with AVX-512, as the AVX2 one
// (ControlSearchAVX512.c): for processors with AVX-512 F, BW, VL and VBMI2.
int cbs_find_bidi_controls_avx512(const uint8_t *bytes, size_t *at, size_t count, size_t *offsets,
                                  uint32_t *controls, size_t capacity, size_t *found);
#endif

#endif
