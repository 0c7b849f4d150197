// jansson for lsp-bench: decoding a message the way the daemon must
// (contract §1: JSON_DECODE_ANY | JSON_ALLOW_NUL) gives the time floor.
#ifndef BENCH_JANSSON_SHIM_H
#define BENCH_JANSSON_SHIM_H

#include <jansson.h>

/// The daemon's decode flags.
static inline size_t bench_json_decode_flags(void) { return JSON_DECODE_ANY | JSON_ALLOW_NUL; }

/// Drops a reference (json_decref is a macro over an inline function).
static inline void bench_json_release(json_t *json) { json_decref(json); }

/// Takes a reference (json_incref is a macro over an inline function).
static inline void bench_json_retain(json_t *json) { json_incref(json); }

static inline int bench_json_is_integer(const json_t *json) { return json_is_integer(json); }

#endif
