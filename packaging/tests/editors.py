"""Loading the packaged plugins in the real editors, headless, with no
vimrc or init file: `:packadd bidi-lsp` in Vim and Neovim, and the Emacs
package activated by package.el."""

import os
import subprocess

import support


def packpath(editor):
    """The editor's own 'packpath' with no vimrc (-Nu NONE / --clean)."""
    out = os.path.join(support.temporary_directory(), "packpath")
    if editor == "vim":
        command = ["vim", "-Nu", "NONE", "-i", "NONE", "-es", "-c", "call writefile([&packpath], %r)" % out,
                   "-c", "qa!"]
    else:
        command = ["nvim", "--clean", "--headless", "-c", "call writefile([&packpath], %r)" % out, "-c", "qa!"]
    support.run(command, check=True, stdin=subprocess.DEVNULL)
    with open(out) as f:
        return f.read().strip().split(",")


def packadd(editor, packpath_entries):
    """`:packadd bidi-lsp` with 'packpath' set to PACKPATH_ENTRIES, no
    vimrc: "1 2 bidi-lsp.txt" when the plugin loaded, its :BidiDirection
    command exists and `:help bidi-lsp.txt` opens its help (tags generated)."""
    out = os.path.join(support.temporary_directory(), "loaded")
    probe = "call writefile([exists('g:loaded_bidi_lsp') . ' ' . exists(':BidiDirection') . ' ' . expand('%%:t')], %r)" % out
    setting = "set packpath=" + ",".join(p.replace(",", "\\,") for p in packpath_entries)
    start = ["vim", "-Nu", "NONE", "-i", "NONE", "-es"] if editor == "vim" else ["nvim", "--clean", "--headless"]
    command = start + ["--cmd", setting, "-c", "packadd bidi-lsp", "-c", "silent! help bidi-lsp.txt", "-c", probe,
                       "-c", "qa!"]
    result = support.run(command, stdin=subprocess.DEVNULL)
    if not os.path.exists(out):
        return "no answer: " + result.stdout + result.stderr
    with open(out) as f:
        return f.read().strip()
