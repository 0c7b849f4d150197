// Byte scans of the fast paths: `bidi-lsp visual`'s plain text, the hazard
// scan's search for bidi controls and ill-formed UTF-8, a paragraph's UTF-8
// decoded into scalars and classes, the line feeds of `check`'s parts (SSE2
// where the target has it, AVX2 and AVX-512 where the processor has them).
// Swift's SIMD types do not yet compile these loops to vector code reliably.
#ifndef CBYTESCAN_H
#define CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

/// The length of the prefix of `bytes` (at most `count`) made of printable
/// ASCII (0x20...0x7E), tabs and line feeds; `*line_feeds` receives the
/// number of line feeds in it.
size_t cbs_plain_text_prefix(const uint8_t *bytes, size_t count, size_t *line_feeds);
/// The length of the prefix of `bytes` (at most `count`) made of printable
/// ASCII (0x20...0x7E), tabs and line feeds, for short texts such as one
/// line: 16 bytes at a time, the last ones as an overlapping block, with no
/// set-up (`cbs_plain_text_prefix` is for long ones).
size_t cbs_plain_line_prefix(const uint8_t *bytes, size_t count);

/// The bidi controls of `bytes[start..<count]` (`start` begins a UTF-8
/// sequence), in order, up to the first sequence left to the caller — one
/// that is neither ASCII, nor a well-formed two-byte sequence, nor a
/// well-formed three-byte one led by E2 (every control but U+061C ALM is
/// one): ill-formed bytes, the rest of the three- and four-byte sequences —
/// and at most `capacity` of them: their offsets in `offsets` and code
/// points (U+061C, U+200E…U+2069) in `controls`. Returns how many; `*end`
/// receives where the search stopped: `count`, the sequence left to the
/// caller, or, when `capacity` controls were found, the offset after the
/// last. ASCII, two-byte sequences (most right-to-left scripts) and E2
/// three-byte ones (every control but ALM) are passed over 64 bytes at a
/// time with AVX-512 or AVX2 where the processor has it, else ASCII and
/// two-byte sequences 16 at a time with SSE2. The entries of `offsets` and
/// `controls` past those returned, below `capacity`, may be written over.
size_t cbs_find_bidi_controls(const uint8_t *bytes, size_t start, size_t count, size_t *offsets, uint32_t *controls,
                              size_t capacity, size_t *end);


/// The line of well-formed UTF-8 that starts at `start`: returns its
/// content's end (the first `\n` or `\r` from `start`, or `count`), and
/// counts its continuation bytes (80–BF) in `*continuations` and its bytes
/// F0 and above (four-byte leads) in `*four_byte_leads`. 32 bytes at a time
/// with AVX2 where the processor has it, else 16 at a time with SSE2.
size_t cbs_well_formed_line(const uint8_t *bytes, size_t start, size_t count, size_t *continuations,
                            size_t *four_byte_leads);

/// Limits the vectors the scans use, for tests of each path on one
/// processor: 3 (the default) AVX-512 where the processor has it (the
/// search for controls only), 2 AVX2 at most, 1 SSE2 at most, 0 byte by
/// byte. Returns the level before. Results are the same at every level;
/// only the speed differs.
int cbs_set_vector_level(int level);

/// How many bytes of `bytes[0..<count]` are `byte`: 64 bytes at a time
/// with SSE2 (counted in byte lanes, summed every 63 rounds).
size_t cbs_count_byte(const uint8_t *bytes, size_t count, uint8_t byte);

/// The line feeds of `bytes[0..<count]`, and in `*carriage_return` 1 when a
/// carriage return is among the bytes, else 0: one pass of 64 bytes at a
/// time with AVX-512 where the processor has it, else `cbs_count_byte`
/// and `memchr`.
size_t cbs_count_line_feeds(const uint8_t *bytes, size_t count, int *carriage_return);

/// Whether `cbs_decode_classes` decodes anything (the processor has
/// AVX-512 and the vector level allows it): 1, else 0.
int cbs_vector_decode(void);

/// Decodes the UTF-8 of `bytes[*at..<count]` (`*at` begins a sequence) as
/// `UTF8Decoder` does, 64 bytes a round with AVX-512, while its sequences
/// are ASCII, well-formed two-byte ones or E2 80 xx and E2 81 xx
/// (U+2000…U+207F): each character's scalar value in `scalars` and the
/// Bidi_Class bits of its property byte in `classes` from index `index` on,
/// its index in `brackets[*bracket_count]` (the count moved on) when it is
/// a paired bracket; the bits `1 << class` of the classes found are ORed
/// into `*class_bits`. `properties` is the property bytes (CUnicodeBidiData's
/// `ubd_blocks`: read up to three bytes past an entry), indexed by the code
/// point below U+0800 and from `general_punctuation` on by the code point
/// less U+2000 in that block. Moves `*at` to the first sequence not
/// decoded (`count` when all are) and returns the number of characters
/// decoded; without AVX-512, 0.
size_t cbs_decode_classes(const uint8_t *_Nonnull bytes, size_t count, size_t *_Nonnull at, size_t index,
                          uint32_t *_Nonnull scalars, uint8_t *_Nonnull classes, int32_t *_Nonnull brackets,
                          size_t *_Nonnull bracket_count, uint32_t *_Nonnull class_bits,
                          const uint8_t *_Nonnull properties, uint32_t general_punctuation);

#endif
