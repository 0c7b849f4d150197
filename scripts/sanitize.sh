#!/usr/bin/env bash
# Builds bidi-lsp with a sanitizer and runs the integration tests that drive
# its reader and worker threads against that binary: framing, malformed
# input and errors, exit statuses, mutated messages, a flood with cancels,
# and the smoke session and the localization checks over pipes (the handlers'
# own tests run in process in BidiServerTests, without a sanitizer). Fails on
# any sanitizer report (each is printed), as well as on any failing test.
#
#   scripts/sanitize.sh address   AddressSanitizer + LeakSanitizer
#   scripts/sanitize.sh thread    ThreadSanitizer
#
# The sanitizer runtimes are the ones the Swift toolchain ships
# (lib/clang/*/lib/linux/libclang_rt.{asan,tsan}-x86_64.a); nothing to install.
# The daemon is built in .build/sanitize-KIND; the test bundle is the ordinary
# release one (it only drives the binary over pipes). Tests that measure the
# daemon's memory (/proc) or need the uninstrumented speed are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

kind=${1:-}
case "$kind" in
  address | thread) ;;
  *)
    echo "usage: scripts/sanitize.sh address|thread" >&2
    exit 2
    ;;
esac

tests='IntegrationTests\.(FramingTests|MalformedInputTests|ErrorTests|ExitStatusTests|FuzzTests|BackPressureFloodTests|SmokeTests|LocalizationProtocolTests)'
# Memory measured from /proc is meaningless under a sanitizer's shadow
# memory.
skip='FramingTests[./](testAnnouncedLengthReservesNoMemoryBeforeTheBytesArrive|testOversizedBodyIsSkippedWithoutBeingHeld)|BackPressureFloodTests[./]testAFloodWithoutReadingKeepsTheDaemonsMemoryBounded'

scratch=.build/sanitize-$kind
# A sanitizer's runtime needs the C libraries linked dynamically (Package.swift).
BIDI_LSP_LINK=dynamic-libc swift build -c release --sanitize="$kind" --scratch-path "$scratch" --product bidi-lsp

reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
export BIDI_LSP_PATH="$PWD/$scratch/release/bidi-lsp"
case "$kind" in
  address) export ASAN_OPTIONS="log_path=$reports/report:detect_leaks=1:abort_on_error=0" ;;
  # The suppressions are for Swift's lazily initialised globals only (see the
  # file).
  thread) export TSAN_OPTIONS="log_path=$reports/report:halt_on_error=0:suppressions=$PWD/scripts/tsan-suppressions.txt" ;;
esac

status=0
# The test bundle as scripts/test.sh builds it (the same command: nothing to
# rebuild after it; other flags would compile every module again).
swift test -c release --filter "$tests" --skip "$skip" || status=$?

# `check`'s own threads, on the same binary: a plain file cut into parts, a
# large Markdown file and a large SRT read in parts (PartRunner), several
# files checked ahead (CheckPrefetch); each report equal to --jobs 1's.
inputs=$(mktemp -d)
trap 'rm -rf "$reports" "$inputs"' EXIT
python3 - "$inputs" <<'PY'
import sys
d = sys.argv[1]
plain = "".join(f"line {k} \u202e\u05d0\u05d1 abc \u2067\u0627 12\n" if k % 3 else "clean \u05e9\u05dc\u05d5\u05dd\n" for k in range(40000))
blocks = ["- [Apple Pay](https://example.com) \u0645\u062a\u0627\u062d", "**iPhone** \u0645\u062a\u0648\u0641\u0631", "plain", "```c\n/* \u202e */\n```"]
markdown = "".join(blocks[k % 4] + "\n\n" for k in range(12000))
cues = "".join(f"{k}\n00:00:01,000 --> 00:00:02,000\n\u0645\u0631\u062d\u0628\u0627!\n\n" for k in range(1, 9000))
for name, text in (("plain.txt", plain), ("notes.ar.md", markdown), ("movie.ar.srt", cues)):
    open(f"{d}/{name}", "w", encoding="utf-8").write(text)
PY
for args in "$inputs/plain.txt" "$inputs/notes.ar.md" "$inputs/movie.ar.srt" "$inputs/notes.ar.md $inputs/movie.ar.srt $inputs/plain.txt"; do
  # shellcheck disable=SC2086 # several paths in one string
  one=$("$BIDI_LSP_PATH" check --jobs 1 --format json $args | md5sum) || true
  # shellcheck disable=SC2086
  many=$("$BIDI_LSP_PATH" check --jobs 3 --format json $args | md5sum) || true
  if [[ "$one" != "$many" ]]; then
    echo "sanitize: check --jobs 3 differs from --jobs 1 on $args" >&2
    status=1
  fi
done

found=$(find "$reports" -type f | sort)
if [[ -n "$found" ]]; then
  for report in $found; do
    echo "=== $report" >&2
    cat "$report" >&2
  done
  echo "sanitize: $(echo "$found" | wc -l) $kind sanitizer report(s)" >&2
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "sanitize: tests failed against the $kind-sanitized daemon" >&2
  exit "$status"
fi
echo "sanitize: no $kind sanitizer report"
