#!/usr/bin/env bash
# compare-check-output.sh BEFORE AFTER: whether two bidi-lsp binaries give
# the same `check` output (stdout byte for byte, and the exit code) in
# --format text, json and sarif, on each file alone and on each group of
# files in one run. The groups (each skipped when its folder is missing):
#   SYNTHETIC  (default /tmp/md27b): check-*.md, blocks.md, small.md
#              (issue27-bench.py make)
#   the Markdown corpus Tests/MarkdownTests/Corpus/*.md
#   REAL       (default /work/realmd): real files (SOURCES.txt)
#   REALCAT    (default /tmp/realmd33): real-0.md, real-3.md
#              (issue27-bench.py make-real)
#   SPEC       (default .build/cmark-gfm-tests): every example of spec.txt,
#              extensions.txt and regression.txt as a file, and the three
#              whole files as .md (scripts/fetch-cmark-tests.sh)
set -uo pipefail
before=$1
after=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
synthetic=${SYNTHETIC:-/tmp/md27b}
real=${REAL:-/work/realmd}
realcat=${REALCAT:-/tmp/realmd33}
spec=${SPEC:-$root/.build/cmark-gfm-tests}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
total=0
differ=0

compare() {
  for format in text json sarif; do
    "$before" check --format "$format" "$@" >"$work/before" 2>/dev/null
    local exitBefore=$?
    "$after" check --format "$format" "$@" >"$work/after" 2>/dev/null
    local exitAfter=$?
    total=$((total + 1))
    if ! cmp -s "$work/before" "$work/after" || [[ $exitBefore != "$exitAfter" ]]; then
      differ=$((differ + 1))
      echo "differ: --format $format $*" | cut -c1-300
    fi
  done
}

group() {
  local name=$1
  shift
  [[ $# -gt 0 && -e $1 ]] || return 0
  local totalBefore=$total differBefore=$differ
  for file in "$@"; do compare "$file"; done
  compare "$@"
  echo "$name: $((total - totalBefore)) comparisons, $((differ - differBefore)) differ"
}

group synthetic "$synthetic"/check-*.md "$synthetic"/blocks.md "$synthetic"/small.md
group corpus "$root"/Tests/MarkdownTests/Corpus/*.md
group real "$real"/*.md
group real-concatenated "$realcat"/real-0.md "$realcat"/real-3.md
if [[ -f $spec/spec.txt ]]; then
  mkdir -p "$work/spec"
  python3 - "$spec" "$work/spec" <<'PY'
import os, sys
source, target = sys.argv[1], sys.argv[2]
count = 0
for name in ["spec.txt", "extensions.txt", "regression.txt"]:
    path = os.path.join(source, name)
    if not os.path.exists(path): continue
    text = open(path, encoding="utf-8").read()
    open(os.path.join(target, "whole-" + name[:-4] + ".md"), "w", encoding="utf-8").write(text)
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```````````````````````````````` example"):
            j = i + 1
            markdown = []
            while lines[j] != ".":
                markdown.append(lines[j]); j += 1
            with open(os.path.join(target, "%s-%04d.md" % (name[:-4], count)), "w", encoding="utf-8") as f:
                f.write(("\n".join(markdown) + "\n").replace("\u2192", "\t"))
            count += 1
            while not lines[j].startswith("````````````````````````````````"): j += 1
            i = j
        i += 1
PY
  group spec-examples "$work"/spec/[a-z]*-[0-9]*.md
  group spec-whole "$work"/spec/whole-*.md
fi
echo "total: $total comparisons, $differ differ"
[[ $differ == 0 ]]
