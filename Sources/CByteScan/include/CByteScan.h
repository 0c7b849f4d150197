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

#endif
