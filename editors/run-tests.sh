#!/usr/bin/env bash
# Runs the editor plugins' tests against a real bidi-lsp daemon:
#   Vim (Vim with its screen but no terminal, so tests can read what it
#   displays), Neovim (nvim --headless), Emacs (ERT in batch, and
#   byte-compiling with warnings as errors), VS Code (node's test runner; the
#   extension runs against a fake `vscode` module, the LSP client against the
#   daemon), the Python client's command line (unittest).
#
# Usage: editors/run-tests.sh
#   BIDI_LSP=path/to/bidi-lsp   the daemon (default: ../.build/release/bidi-lsp
#                               relative to this script)
#   BIDI_EDITORS_ALLOW_MISSING=1  a missing editor (vim, nvim, emacs, node)
#                               skips its suite without failing the run
#
# Prints each suite's result and a final "N passed, M failed, K skipped" line
# (each skipped test says why); exits 1 if any test failed or a suite could
# not run.

set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
daemon="${BIDI_LSP:-$here/../.build/release/bidi-lsp}"
case "$daemon" in /*) ;; *) daemon="$PWD/$daemon" ;; esac
export BIDI_LSP="$daemon"
suite_timeout="${BIDI_EDITORS_TIMEOUT:-300}"

passed=0
failed=0
skipped=0
missing=0
log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT

if [ ! -x "$daemon" ]; then
  echo "run-tests: the daemon is not executable: $daemon (build it with swift build -c release, or set BIDI_LSP)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

# The suites start the daemon through this watcher, which writes down every
# daemon that dies of a trap or a fault (SIGILL, SIGTRAP, SIGABRT, SIGBUS,
# SIGFPE, SIGSEGV): an editor starts a new daemon and its next test may
# pass, but a crash fails the run. The tests' own kills (SIGKILL, SIGTERM)
# reach the watcher, not the daemon, which then ends at the end of its input.
crashes="$log/crashes.txt"
watcher="$log/bidi-lsp"
cat >"$watcher" <<EOF
#!/bin/sh
"$daemon" "\$@"
status=\$?
case \$status in
  132|133|134|135|136|139) echo "bidi-lsp \$* died with exit status \$status (128 + signal)" >>"$crashes" ;;
esac
exit \$status
EOF
chmod +x "$watcher"
export BIDI_LSP="$watcher"

# Records a suite's counts: name, passed, failed, output file, exit status
# [, skipped].
record() {
  local name="$1" ok="$2" bad="$3" output="$4" status="$5" skips="${6:-}"
  if [ -z "$ok" ] && [ -z "$bad" ]; then
    # No summary: the suite itself broke (or hung). Count it as one failure.
    ok=0
    bad=1
  fi
  ok="${ok:-0}"
  bad="${bad:-0}"
  skips="${skips:-0}"
  if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi
  passed=$((passed + ok))
  failed=$((failed + bad))
  skipped=$((skipped + skips))
  if [ "$bad" -eq 0 ]; then
    if [ "$skips" -gt 0 ]; then echo "$name: $ok passed, $skips skipped"; else echo "$name: $ok passed"; fi
    grep -aE '^skip ' "$output" | sed 's/^/    /'
  else
    echo "$name: $ok passed, $bad failed (exit status $status); output:"
    sed 's/^/    /' "$output"
  fi
}

# Reads the last "NAME: N passed, M failed[, K skipped]" line of a suite's
# output and records it.
record_summary() {
  local name="$1" output="$2" status="$3" summary
  summary="$(grep -aE "^$name: [0-9]+ passed, [0-9]+ failed" "$output" | tail -1)"
  record "$name" "$(sed -nE 's/^[a-z]+: ([0-9]+) passed.*/\1/p' <<<"$summary")" \
    "$(sed -nE 's/.* ([0-9]+) failed.*/\1/p' <<<"$summary")" "$output" "$status" \
    "$(sed -nE 's/.* ([0-9]+) skipped.*/\1/p' <<<"$summary")"
}

skip() {
  echo "$1: SKIPPED: '$2' is not installed${3:+ ($3)}"
  missing=$((missing + 1))
}

# -- Vim ---------------------------------------------------------------------
if command -v vim >/dev/null 2>&1; then
  out="$log/vim.txt"
  (cd "$root" && BIDI_TEST_LOG="$out" timeout "$suite_timeout" vim -Nu NONE -i NONE --not-a-term \
    -S "$here/vim/test/run.vim" </dev/null >/dev/null 2>"$log/vim-stderr.txt")
  status=$?
  cat "$log/vim-stderr.txt" >>"$out"
  record_summary "vim" "$out" "$status"
else
  skip "vim" "vim" "Debian package vim"
fi

# -- Neovim ------------------------------------------------------------------
if command -v nvim >/dev/null 2>&1; then
  out="$log/nvim.txt"
  (cd "$root" && BIDI_TEST_LOG="$out" timeout "$suite_timeout" nvim --headless -u NONE -i NONE -n \
    -S "$here/neovim/test/run.lua") >"$log/nvim-stdout.txt" 2>&1
  status=$?
  cat "$log/nvim-stdout.txt" >>"$out"
  record_summary "nvim" "$out" "$status"
else
  skip "nvim" "nvim" "Debian package neovim"
fi

# -- Emacs -------------------------------------------------------------------
if command -v emacs >/dev/null 2>&1; then
  out="$log/emacs-compile.txt"
  cp "$here"/emacs/bidi-lsp*.el "$log/"
  timeout "$suite_timeout" emacs -Q --batch -L "$log" \
    --eval '(setq byte-compile-error-on-warn t)' -f batch-byte-compile "$log"/bidi-lsp*.el >"$out" 2>&1
  status=$?
  if [ "$status" -eq 0 ]; then record "emacs byte-compile" 1 0 "$out" 0; else record "emacs byte-compile" 0 1 "$out" "$status"; fi

  out="$log/emacs.txt"
  (cd "$root" && timeout "$suite_timeout" emacs -Q --batch -L "$here/emacs" -l ert \
    -l "$here/emacs/test/bidi-lsp-tests.el" -f ert-run-tests-batch-and-exit) >"$out" 2>&1
  status=$?
  summary="$(grep -E '^Ran [0-9]+ tests?, [0-9]+ results? as expected' "$out" | tail -1)"
  ok="$(sed -E 's/^Ran [0-9]+ tests?, ([0-9]+) results? as expected.*/\1/' <<<"$summary")"
  bad="$(sed -nE 's/.*, ([0-9]+) unexpected.*/\1/p' <<<"$summary")"
  [ -n "$summary" ] && bad="${bad:-0}"
  record "emacs" "$ok" "$bad" "$out" "$status"
else
  skip "emacs" "emacs" "Debian package emacs-nox"
fi

# -- VS Code -----------------------------------------------------------------
if command -v node >/dev/null 2>&1; then
  out="$log/vscode.txt"
  (cd "$root" && timeout "$suite_timeout" node --test "$here/vscode/test/") >"$out" 2>&1
  status=$?
  ok="$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$out" | tail -1)"
  bad="$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$out" | tail -1)"
  record "vscode (node $(node --version), fake vscode API)" "$ok" "$bad" "$out" "$status"
else
  skip "vscode" "node" "Debian package nodejs, version 18 or later"
fi

# -- Python client -------------------------------------------------------------
if command -v python3 >/dev/null 2>&1; then
  out="$log/python.txt"
  (cd "$root" && timeout "$suite_timeout" python3 -m unittest discover -s "$here/python" -p 'test_*.py' -v) >"$out" 2>&1
  status=$?
  total="$(sed -nE 's/^Ran ([0-9]+) tests? in .*/\1/p' "$out" | tail -1)"
  if [ -n "$total" ]; then
    # The last line: "OK", "OK (skipped=1)" or "FAILED (failures=1, errors=2, skipped=3)".
    count() { local n; n="$(sed -nE "s/^(OK|FAILED) \(.*$1=([0-9]+).*/\2/p" "$out" | tail -1)"; echo "${n:-0}"; }
    bad=$(( $(count failures) + $(count errors) ))
    ok=$(( total - bad - $(count skipped) ))
    record "python client ($(python3 --version 2>&1))" "$ok" "$bad" "$out" "$status"
  else
    record "python client" "" "" "$out" "$status"
  fi
else
  skip "python client" "python3" "Debian package python3"
fi

if [ -s "$crashes" ]; then
  echo "daemon crashes during the suites:"
  sed 's/^/    /' "$crashes"
  failed=$((failed + $(wc -l <"$crashes")))
fi

echo "$passed passed, $failed failed, $skipped skipped"
if [ "$failed" -gt 0 ]; then exit 1; fi
if [ "$missing" -gt 0 ] && [ "${BIDI_EDITORS_ALLOW_MISSING:-0}" != 1 ]; then
  echo "run-tests: $missing suite(s) skipped; set BIDI_EDITORS_ALLOW_MISSING=1 to allow it" >&2
  exit 1
fi
exit 0
