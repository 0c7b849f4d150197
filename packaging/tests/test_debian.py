"""The Debian package (bidi-lsp_V-1_amd64.deb): its control fields, its
files extracted where Debian puts them, lintian with no error, and the
plugins found where Debian's own vim, neovim and Emacs look, with no vimrc
or init file."""

import hashlib
import os
import subprocess
import unittest

import editors
import support


class DebianTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.deb = support.artifact("bidi-lsp_%s-1_amd64.deb" % support.VERSION)
        cls.root = support.temporary_directory()
        support.run(["dpkg-deb", "-x", cls.deb, cls.root], check=True)

    def field(self, name):
        return support.run(["dpkg-deb", "-f", self.deb, name], check=True).stdout.strip()

    def test_control_fields(self):
        self.assertEqual(self.field("Package"), "bidi-lsp")
        self.assertEqual(self.field("Version"), support.VERSION + "-1")
        self.assertEqual(self.field("Architecture"), "amd64")
        self.assertEqual(self.field("Depends"), "", "a static binary depends on nothing")
        size = sum((os.path.getsize(os.path.join(d, n)) + 1023) // 1024
                   for d, _, names in os.walk(self.root) for n in names)
        self.assertEqual(int(self.field("Installed-Size")), size)

    def test_files_where_debian_puts_them(self):
        listing = support.run(["dpkg-deb", "-c", self.deb], check=True).stdout
        self.assertNotIn("/test/", listing)
        for path in ["usr/bin/bidi-lsp", "usr/share/man/man1/bidi-lsp.1.gz", "usr/share/doc/bidi-lsp/copyright",
                     "usr/share/doc/bidi-lsp/changelog.Debian.gz", "usr/share/lintian/overrides/bidi-lsp",
                     "usr/share/vim/vimfiles/pack/bidi-lsp/opt/bidi-lsp/plugin/bidi_lsp.vim",
                     "usr/share/nvim/site/pack/bidi-lsp/opt/bidi-lsp/plugin/bidi_lsp.lua",
                     "usr/share/emacs/site-lisp/elpa/bidi-lsp-%s/bidi-lsp-autoloads.el" % support.VERSION]:
            self.assertTrue(os.path.isfile(os.path.join(self.root, path)), path)
        self.assertTrue(os.access(os.path.join(self.root, "usr/bin/bidi-lsp"), os.X_OK))
        version = support.run([os.path.join(self.root, "usr/bin/bidi-lsp"), "--version"], env={})
        self.assertEqual(version.stdout, "bidi-lsp %s (Unicode 17.0.0)\n" % support.VERSION)
        # md5sums lists every file, with its sum.
        control = support.temporary_directory()
        support.run(["dpkg-deb", "-e", self.deb, control], check=True)
        with open(os.path.join(control, "md5sums")) as f:
            sums = dict(reversed(line.rstrip("\n").split("  ", 1)) for line in f)
        files = {os.path.relpath(os.path.join(d, n), self.root) for d, _, names in os.walk(self.root) for n in names}
        self.assertEqual(set(sums), files)
        for path, digest in sums.items():
            with open(os.path.join(self.root, path), "rb") as f:
                self.assertEqual(hashlib.md5(f.read()).hexdigest(), digest, path)

    def test_lintian_reports_no_error(self):
        result = support.run(["lintian", "--pedantic", "--display-info", self.deb],
                             env=dict(os.environ, LC_ALL="C.UTF-8"))
        tags = [line for line in result.stdout.splitlines() if line[:2] in ("E:", "W:", "I:", "P:", "O:")]
        print("\nlintian: " + ("\n  ".join([""] + tags) if tags else "no tag"))
        self.assertEqual([t for t in tags if t.startswith("E:")], [])
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def packpath_here(self, editor, system):
        """The editor's own 'packpath', SYSTEM (where the package puts the
        plugin) replaced by its copy in the extracted tree."""
        entries = editors.packpath(editor)
        self.assertIn(system, entries, "Debian's %s looks in %s" % (editor, system))
        return [os.path.join(self.root, system.lstrip("/")) if entry == system else entry for entry in entries]

    def test_vim_and_neovim_find_the_plugin_with_packadd(self):
        for editor, system in (("vim", "/usr/share/vim/vimfiles"), ("nvim", "/usr/share/nvim/site")):
            self.assertEqual(editors.packadd(editor, self.packpath_here(editor, system)), "1 2 bidi-lsp.txt", editor)

    def test_emacs_activates_the_package_at_startup(self):
        system = "/usr/share/emacs/site-lisp/elpa"
        listed = support.run(["emacs", "--batch", "-l", "package", "--eval",
                              "(princ (mapconcat #'identity package-directory-list \"\\n\"))"],
                             stdin=subprocess.DEVNULL, env=dict(os.environ, HOME=support.temporary_directory()))
        self.assertIn(system, listed.stdout.split("\n"), "Debian's Emacs activates packages from there")
        here = os.path.join(self.root, system.lstrip("/"))
        script = ("(progn (setq package-directory-list (list %s)) (package-activate-all)"
                  " (princ (format \"%%s %%s\" (and (package-installed-p 'bidi-lsp) t) (fboundp 'bidi-lsp-mode))))"
                  % ('"%s"' % here))
        result = support.run(["emacs", "--batch", "-l", "package", "--eval", script], stdin=subprocess.DEVNULL,
                             env=dict(os.environ, HOME=support.temporary_directory()))
        self.assertEqual(result.stdout, "t t", result.stderr)


if __name__ == "__main__":
    unittest.main()
