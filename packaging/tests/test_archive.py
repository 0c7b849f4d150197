"""The release archive (bidi-lsp-V-linux-x86_64.tar.gz), unpacked into an
empty folder and used as a user would: its binary static, stripped, run
with an empty environment; its man page; its plugins loaded by the real
editors."""

import json
import os
import re
import subprocess
import tarfile
import unittest

import editors
import support


class ArchiveTests(unittest.TestCase):
    def setUp(self):
        self.top = support.unpacked_archive()
        self.binary = support.binary()

    def test_one_top_folder_with_the_binary_man_page_plugins_and_readme(self):
        with tarfile.open(support.artifact("bidi-lsp-%s-linux-x86_64.tar.gz" % support.VERSION)) as tar:
            names = tar.getnames()
            self.assertEqual({name.split("/")[0] for name in names}, {"bidi-lsp-" + support.VERSION})
            self.assertEqual({(m.uid, m.gid) for m in tar.getmembers()}, {(0, 0)})
        for path in ["bin/bidi-lsp", "share/man/man1/bidi-lsp.1", "README.md",
                     "share/bidi-lsp/vim/plugin/bidi_lsp.vim", "share/bidi-lsp/vim/doc/tags",
                     "share/bidi-lsp/neovim/plugin/bidi_lsp.lua", "share/bidi-lsp/neovim/lua/bidi_lsp/init.lua",
                     "share/bidi-lsp/neovim/doc/tags", "share/bidi-lsp/emacs/bidi-lsp.el"]:
            self.assertTrue(os.path.isfile(os.path.join(self.top, path)), path)
        self.assertFalse(any("/test/" in name for name in names), "no plugin tests in the archive")

    def test_the_binary_is_static_and_stripped(self):
        program = support.run(["readelf", "-lW", self.binary]).stdout
        self.assertNotIn("INTERP", program, "no program interpreter: a static executable")
        dynamic = support.run(["readelf", "-dW", self.binary]).stdout
        self.assertNotIn("(NEEDED)", dynamic)
        sections = support.run(["readelf", "-SW", self.binary]).stdout
        self.assertNotIn(".symtab", sections)
        self.assertNotIn(".debug_info", sections)

    def test_the_binary_runs_with_an_empty_environment(self):
        work = support.temporary_directory()
        with open(os.path.join(work, "access.c"), "w", encoding="utf-8") as f:
            f.write(support.TROJAN_C)
        version = support.run([self.binary, "--version"], env={}, cwd=work)
        self.assertEqual(version.stdout, "bidi-lsp %s (Unicode 17.0.0)\n" % support.VERSION)
        check = support.run([self.binary, "check", "access.c"], env={}, cwd=work)
        self.assertEqual(check.returncode, 1)
        self.assertIn("access.c:3:5: error: U+202E RIGHT-TO-LEFT OVERRIDE", check.stdout)
        visual = support.run([self.binary, "visual"], env={}, input="abc \u05d0\u05d1\u05d2\n")
        self.assertEqual(visual.stdout, "abc \u05d2\u05d1\u05d0\n")
        # The server: initialize, shutdown, exit over stdio.
        messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
                    {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}]
        stdin = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                         for body in (json.dumps(m).encode() for m in messages))
        served = subprocess.run([self.binary], env={}, input=stdin, capture_output=True, timeout=30)
        self.assertEqual(served.returncode, 0, served.stderr)
        self.assertIn(b'"serverInfo":{"name":"bidi-lsp","version":"%s"}' % support.VERSION.encode(),
                      served.stdout.replace(b" ", b""))

    def test_the_man_page_renders_without_warnings_and_covers_every_option(self):
        page = os.path.join(self.top, "share", "man", "man1", "bidi-lsp.1")
        rendered = support.run(["man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", page],
                               env=dict(os.environ, MANWIDTH="80"))
        self.assertEqual(rendered.stderr, "")
        text = re.sub(".\b", "", rendered.stdout)
        self.assertIn("bidi-lsp %s" % support.VERSION, text)
        for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "CHECK", "VISUAL", "EXIT STATUS", "FILES", "EXAMPLES"):
            self.assertRegex(text, "(?m)^%s$" % section)
        helps = [support.run([self.binary] + arguments).stdout
                 for arguments in (["--help"], ["check", "--help"], ["visual", "--help"])]
        options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", "".join(helps)))
        self.assertGreater(len(options), 12)
        self.assertEqual({o for o in options if o not in text.replace("\u2010", "-")}, set())

    def test_the_vim_and_neovim_plugins_load_with_packadd(self):
        for editor, folder in (("vim", "vim"), ("nvim", "neovim")):
            packpath = support.temporary_directory()
            os.makedirs(os.path.join(packpath, "pack", "bidi-lsp", "opt"))
            os.symlink(os.path.join(self.top, "share", "bidi-lsp", folder),
                       os.path.join(packpath, "pack", "bidi-lsp", "opt", "bidi-lsp"))
            self.assertEqual(editors.packadd(editor, [packpath]), "1 2 bidi-lsp.txt", editor)


if __name__ == "__main__":
    unittest.main()
