// Byte scans for the fast paths of `bidi-lsp visual` (SSE2 where the
// target has it, else eight bytes at a time). Swift's SIMD types do not yet
// compile these loops to vector code reliably.
#ifndef CBYTESCAN_H
#define CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

/// The length of the prefix of `bytes` (at most `count`) made of printable
/// ASCII (0x20...0x7E), tabs and line feeds; `*line_feeds` receives the
/// number of line feeds in it.
size_t cbs_plain_text_prefix(const uint8_t *bytes, size_t count, size_t *line_feeds);

/// Whether `bytes` may hold a paragraph separator other than LF and CR:
/// a byte 0x1C...0x1E, 0x85 (U+0085 is C2 85) or 0xA9 (U+2029 is E2 80 A9).
/// False means it holds none; true calls for the exact check.
int cbs_may_hold_paragraph_separator(const uint8_t *bytes, size_t count);

#endif
