// Byte scans of the fast paths: `bidi-lsp visual`'s plain text and the
// hazard scan's skip over text without controls (SSE2 where the target has
// it, AVX2 where the processor has it). Swift's SIMD types do not yet
// compile these loops to vector code reliably.
#ifndef CBYTESCAN_H
#define CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

/// The length of the prefix of `bytes` (at most `count`) made of printable
/// ASCII (0x20...0x7E), tabs and line feeds; `*line_feeds` receives the
/// number of line feeds in it.
size_t cbs_plain_text_prefix(const uint8_t *bytes, size_t count, size_t *line_feeds);

/// The offset, at or after `start` (which begins a UTF-8 sequence), where
/// the vector scan of `bytes[start..<count]` stopped: every sequence before
/// it is ASCII or a well-formed two-byte sequence other than U+061C ALM,
/// and it begins a sequence. It is either the first byte the caller must
/// decide (a lead of three or more bytes, an ill-formed byte, ALM) or, the
/// last 16 bytes being left to the caller, one of them. Without SSE2,
/// `start`.
size_t cbs_skip_plain_utf8(const uint8_t *bytes, size_t start, size_t count);

#endif
