// Thin wrappers over ICU4C's ubidi and UTF-8 conversion.
//
// ICU renames every C entry point with its version (ubidi_open → ubidi_open_72)
// through macros Swift cannot import; these static inline functions give the
// benchmark stable names and compile to direct calls.
#ifndef BENCH_CICU_SHIM_H
#define BENCH_CICU_SHIM_H

#include <stdint.h>
#include <unicode/ubidi.h>
#include <unicode/ustring.h>
#include <unicode/uchar.h>
#include <unicode/ushape.h>

/// Opens a reusable UBiDi object sized for paragraphs of up to max_length units.
static inline UBiDi *bench_icu_open(int32_t max_length, UErrorCode *error) {
  return ubidi_openSized(max_length, 0, error);
}

static inline void bench_icu_close(UBiDi *bidi) { ubidi_close(bidi); }

/// The paragraph level requested for auto direction (P2–P3, LTR when no strong character).
static inline UBiDiLevel bench_icu_default_ltr(void) { return UBIDI_DEFAULT_LTR; }

static inline void bench_icu_set_para(UBiDi *bidi, const UChar *text, int32_t length,
                                      UBiDiLevel para_level, UErrorCode *error) {
  ubidi_setPara(bidi, text, length, para_level, NULL, error);
}

/// Sets `line` to the display line start..<limit of the paragraph in `para`.
static inline void bench_icu_set_line(const UBiDi *para, int32_t start, int32_t limit, UBiDi *line,
                                      UErrorCode *error) {
  ubidi_setLine(para, start, limit, line, error);
}

/// 0 when the paragraph is entirely left-to-right, 1 when it is entirely
/// right-to-left (every level is then the paragraph level and the visual order
/// is logical, or reversed), -1 when mixed: what ubidi_getDirection reports.
static inline int32_t bench_icu_uniform_direction(const UBiDi *bidi) {
  switch (ubidi_getDirection(bidi)) {
  case UBIDI_LTR: return 0;
  case UBIDI_RTL: return 1;
  default: return -1;
  }
}

static inline UBiDiLevel bench_icu_para_level(const UBiDi *bidi) {
  return ubidi_getParaLevel(bidi);
}

static inline const UBiDiLevel *bench_icu_levels(UBiDi *bidi, UErrorCode *error) {
  return ubidi_getLevels(bidi, error);
}

/// Visual-to-logical map of the whole paragraph (one display line).
static inline void bench_icu_visual_map(UBiDi *bidi, int32_t *map, UErrorCode *error) {
  ubidi_getVisualMap(bidi, map, error);
}

/// UTF-8 → UTF-16; returns the number of UTF-16 units written.
static inline int32_t bench_icu_from_utf8(UChar *dest, int32_t capacity, const char *src,
                                          int32_t length, UErrorCode *error) {
  int32_t written = 0;
  u_strFromUTF8(dest, capacity, &written, src, length, error);
  return written;
}

/// ubidi_writeReordered of the paragraph: the visual text, mirrored, bidi
/// controls removed, with UAX #9 L3 (UBIDI_KEEP_BASE_COMBINING) or without;
/// returns the number of UTF-16 units written.
static inline int32_t bench_icu_write_reordered(UBiDi *bidi, UChar *dest, int32_t capacity,
                                                int keep_base_combining, UErrorCode *error) {
  uint16_t options = UBIDI_DO_MIRRORING | UBIDI_REMOVE_BIDI_CONTROLS;
  if (keep_base_combining) options |= UBIDI_KEEP_BASE_COMBINING;
  return ubidi_writeReordered(bidi, dest, capacity, options, error);
}

/// u_shapeArabic for text already in display order (after UAX #9 reordering):
/// the source is visual left-to-right, letters become presentation forms
/// (harakat too: ICU has no option that leaves them), a lam-alef pair becomes
/// one ligature and the text shrinks by one unit (U_SHAPE_LAMALEF_RESIZE),
/// presentation forms already in the text are kept. `tashkeel_isolated`
/// selects U_SHAPE_LETTERS_SHAPE_TASHKEEL_ISOLATED instead of
/// U_SHAPE_LETTERS_SHAPE. Returns the number of UTF-16 units written.
static inline int32_t bench_icu_shape_visual(const UChar *source, int32_t length, UChar *dest,
                                             int32_t capacity, int tashkeel_isolated,
                                             UErrorCode *error) {
  uint32_t options = U_SHAPE_TEXT_DIRECTION_VISUAL_LTR | U_SHAPE_LAMALEF_RESIZE |
                     U_SHAPE_PRESERVE_PRESENTATION;
  options |= tashkeel_isolated ? U_SHAPE_LETTERS_SHAPE_TASHKEEL_ISOLATED : U_SHAPE_LETTERS_SHAPE;
  return u_shapeArabic(source, length, dest, capacity, options, error);
}

/// u_shapeArabic in logical order (before reordering, as ICU's own pipeline
/// runs it), with the same letter, lam-alef and presentation-form options as
/// bench_icu_shape_visual.
static inline int32_t bench_icu_shape_logical(const UChar *source, int32_t length, UChar *dest,
                                              int32_t capacity, UErrorCode *error) {
  uint32_t options = U_SHAPE_TEXT_DIRECTION_LOGICAL | U_SHAPE_LAMALEF_RESIZE |
                     U_SHAPE_PRESERVE_PRESENTATION | U_SHAPE_LETTERS_SHAPE;
  return u_shapeArabic(source, length, dest, capacity, options, error);
}

/// UTF-16 → UTF-8; returns the number of bytes written.
static inline int32_t bench_icu_to_utf8(char *dest, int32_t capacity, const UChar *src,
                                        int32_t length, UErrorCode *error) {
  int32_t written = 0;
  u_strToUTF8(dest, capacity, &written, src, length, error);
  return written;
}

/// The Unicode version of ICU's character data (u_getUnicodeVersion), as "major.minor".
static inline void bench_icu_unicode_version(uint8_t version[4]) { u_getUnicodeVersion(version); }

static inline int bench_icu_failure(UErrorCode error) { return U_FAILURE(error); }

#endif
