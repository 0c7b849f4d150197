#!/usr/bin/env bash
# libFuzzer targets for bidi-lsp (the toolchain's libFuzzer and ASan).
#
#   scripts/fuzz.sh --list                  the target names, one a line
#   scripts/fuzz.sh TARGET SECONDS [ARG…]   builds if needed and fuzzes TARGET
#                                           for SECONDS; ARGs go to libFuzzer
#                                           (e.g. -runs=N, -seed=N); exits
#                                           non-zero on a crash
#   scripts/fuzz.sh --all SECONDS           each target in turn (the test command),
#                                           with -seed=$FUZZ_SEED (1 if unset)
#   scripts/fuzz.sh --build [TARGET…]       only builds
#
#   FUZZ_SANITIZER=none scripts/fuzz.sh …   the same without AddressSanitizer
#                                           (in .build/fuzz-plain): several
#                                           times the executions per second, for
#                                           long runs; Swift's own checks
#                                           (bounds, overflow) still trap
#
# A target is one file, Fuzz/Targets/NAME.swift, defining
# LLVMFuzzerTestOneInput with @_cdecl. It may import any library module of
# the package (each imported one is built; all are linked) and name extra files to compile with it on a
# line `// fuzz-sources: PATH…` (the unit tests' models, say), and libFuzzer
# flags of its own on a line `// fuzz-options: …` (a smaller -max_len, say).
# Files in Fuzz/Support/ are compiled into every target. Seeds:
# Fuzz/Corpus/NAME/ (committed, small); what a run finds goes to
# .build/fuzz/corpus/NAME/, crashes to .build/fuzz/crashes/NAME-*.
#
# The library modules are built by SwiftPM in .build/fuzz with libFuzzer's
# coverage instrumentation and AddressSanitizer; each target is compiled
# with AddressSanitizer alone (its checks do not guide the fuzzer) and
# linked against their objects with libFuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${FUZZ_SANITIZER:-address}" in
  address) scratch=.build/fuzz sanitizer=fuzzer,address asan=,address ;;
  none) scratch=.build/fuzz-plain sanitizer=fuzzer asan= ;;
  *) echo "fuzz: FUZZ_SANITIZER is address or none" >&2; exit 2 ;;
esac
targets() { for file in Fuzz/Targets/*.swift; do basename "$file" .swift; done; }

# The package's modules that some target imports (so every object linked is
# of the same build), built by SwiftPM with their dependencies.
build_modules() {
  local flags=(-c release --scratch-path "$scratch" -Xswiftc -sanitize=$sanitizer
    -Xcc -fsanitize=fuzzer-no-link$asan)
  local module
  for module in $(sed -n 's/^import \([A-Za-z_]*\)$/\1/p' Fuzz/Targets/*.swift Fuzz/Support/*.swift | sort -u); do
    if [[ -d "Sources/$module" ]]; then swift build "${flags[@]}" --target "$module"; fi
  done
}

build_target() {
  local name=$1 source=Fuzz/Targets/$1.swift
  [[ -f "$source" ]] || { echo "fuzz: no target '$name' (see --list)" >&2; exit 2; }
  local release=$scratch/release
  local extra
  extra=$(sed -n 's|^// fuzz-sources:||p' "$source")
  # shellcheck disable=SC2206
  local sources=("$source" Fuzz/Support/*.swift $extra)
  local objects=()
  for folder in Sources/*/; do
    local module
    module=$(basename "$folder")
    local build=$release/$module.build object
    # The objects of the module's current sources (a renamed file leaves a stale one).
    if [[ -f "$build/sources" ]]; then
      while read -r object; do
        object=$build/$(basename "$object").o
        [[ -f "$object" ]] && objects+=("$object")
      done <"$build/sources"
    else
      for object in "$build"/*.c.o; do [[ -f "$object" ]] && objects+=("$object"); done
    fi
  done
  local binary=$scratch/bin/$name
  if [[ -x "$binary" ]] && [[ -z $(find "${sources[@]}" "${objects[@]}" -newer "$binary" | head -1) ]]; then
    return
  fi
  mkdir -p "$scratch/bin"
  local package
  package=$(grep -o '"-package-name","[^"]*"' "$scratch/release.yaml" | head -1 | cut -d'"' -f4)
  echo "fuzz: linking $name" >&2
  # The target's own code (its checks and models) gets ASan but no coverage:
  # libFuzzer is guided by the library's code only, and the checks stay fast.
  local own=()
  [[ -n $asan ]] && own=(-sanitize=address)
  # The system library modules (CJansson, CMalloc): their module maps.
  local map
  for map in Sources/*/module.modulemap; do own+=(-I "$(dirname "$map")"); done
  # The C targets (CUnicodeBidiData, CByteScan): the module maps SwiftPM made.
  for map in "$release"/C*.build/module.modulemap; do own+=(-Xcc -fmodule-map-file="$map"); done
  swiftc -O -wmo "${own[@]}" -parse-as-library -module-name "Fuzz_${name//-/_}" \
    -package-name "$package" -I "$release/Modules" \
    -c "${sources[@]}" -o "$scratch/bin/$name.o"
  swiftc -sanitize=$sanitizer "$scratch/bin/$name.o" "${objects[@]}" -ljansson -o "$binary"
}

run_target() {
  local name=$1 seconds=$2
  shift 2
  build_target "$name"
  local corpus=$scratch/corpus/$name
  mkdir -p "$corpus" "$scratch/crashes" "Fuzz/Corpus/$name"
  local options
  options=$(sed -n 's|^// fuzz-options:||p' "Fuzz/Targets/$name.swift")
  echo "fuzz: $name for ${seconds}s" >&2
  local before status=0
  before=$(find "$scratch/crashes" -name "$name-*" | sort)
  # shellcheck disable=SC2086
  SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}" ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$scratch/bin/$name" -max_total_time="$seconds" \
    -max_len=16384 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$scratch/crashes/$name-" $options "$@" "$corpus" "Fuzz/Corpus/$name" || status=$?
  # What it found, in the log itself (a CI machine's files are gone after
  # the run; libFuzzer prints only inputs under 256 bytes): reproduce with
  # `base64 -d > CRASH` and `.build/fuzz/bin/TARGET CRASH`.
  local file
  for file in $(comm -13 <(echo "$before") <(find "$scratch/crashes" -name "$name-*" | sort)); do
    echo "fuzz: $file, base64:" >&2
    base64 -w 76 "$file" >&2
  done
  return $status
}

case "${1:-}" in
  --list)
    targets
    ;;
  --build)
    shift
    build_modules
    (($#)) || set -- $(targets)
    for name in "$@"; do build_target "$name"; done
    ;;
  --all)
    seconds=${2:?usage: scripts/fuzz.sh --all SECONDS}
    build_modules
    # One seed (FUZZ_SEED, 1 unless set) for every target: a run on a fresh
    # clone tries the same inputs each time, so that a failure can be
    # replayed and a pass means the same thing twice; searching with
    # other seeds is what long runs are for.
    for name in $(targets); do run_target "$name" "$seconds" -seed="${FUZZ_SEED:-1}"; done
    ;;
  "" | -*)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
  *)
    name=$1 seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
    shift 2
    build_modules
    run_target "$name" "$seconds" "$@"
    ;;
esac
