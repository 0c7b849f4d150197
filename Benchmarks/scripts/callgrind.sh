#!/bin/bash
# Instruction counts of bidi-bench's bidi loop per engine and corpus, under
# callgrind: only the engine's run() is counted (--toggle-collect), on a 1 MB
# corpus, one warm-up run and one repetition. Prints "corpus engine Ir".
#
# usage: Benchmarks/scripts/callgrind.sh [BINARY] [ENGINE...]
#   BINARY   bidi-bench built with -c release (default
#            Benchmarks/.build/release/bidi-bench)
#   ENGINE   ours, ICU, FriBidi (default: all three)
# Environment: CORPORA (default "prose prose-wrap80 rtl-code ascii-code
# isolates"), OUT (folder for the callgrind files, default a temporary one).
#
# valgrind cannot read the Swift release binary's debug information, so the
# binary is copied without it first (objcopy --strip-debug); the symbols stay.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/.build/release/bidi-bench}
shift || true
engines=${*:-ours ICU FriBidi}
corpora=${CORPORA:-prose prose-wrap80 rtl-code ascii-code isolates}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
stripped=$out/bidi-bench.nodebug
objcopy --strip-debug "$bin" "$stripped"
# Counts engine $1 on corpus $2 (a bidi-bench corpus name) with --wrap $3.
count() {
  local engine=$1 corpus=$2 wrap=$3 fn file
  case $engine in
    ours) fn='$s10bidi_bench10OursEngineC3runAA8ChecksumVyF' ;;
    ICU) fn='$s10bidi_bench9ICUEngineC3runAA8ChecksumVyF' ;;
    FriBidi) fn='$s10bidi_bench13FriBidiEngineC3runAA8ChecksumVyF' ;;
    *) echo "unknown engine $engine" >&2; exit 2 ;;
  esac
  file=$out/$corpus-wrap$wrap-$engine.out
  valgrind --tool=callgrind --callgrind-out-file="$file" --toggle-collect="$fn" \
    "$stripped" --engine "$engine" --corpus "$corpus" --wrap "$wrap" --reps 1 --size 1 --sample 0 \
    >/dev/null 2>"$file.log"
  grep -m1 "^summary:" "$file" | awk '{print $2}'
}
for corpus in $corpora; do
  for engine in $engines; do
    if [ "$corpus" = prose-wrap80 ]; then
      # bidi-bench measures prose whole and then wrapped in one process:
      # the wrapped rows are the difference.
      both=$(count "$engine" prose 80)
      whole=$(count "$engine" prose 0)
      echo "$corpus $engine $((both - whole))"
    else
      echo "$corpus $engine $(count "$engine" "$corpus" 0)"
    fi
  done
done
