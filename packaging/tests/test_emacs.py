"""The Emacs package (bidi-lsp-V.tar, package.el's multi-file format):
installed with `package-install-file` into a temporary `package-user-dir`,
byte-compiled without a warning, checkdoc clean, and `bidi-lsp-mode` turned
on in `emacs --batch` with the released daemon."""

import os
import subprocess
import tarfile
import unittest

import support


class EmacsPackageTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tar = support.artifact("bidi-lsp-%s.tar" % support.VERSION)

    def test_the_tar_is_a_package_el_multi_file_package(self):
        top = "bidi-lsp-%s" % support.VERSION
        with tarfile.open(self.tar) as tar:
            names = tar.getnames()
            description = tar.extractfile(top + "/bidi-lsp-pkg.el").read().decode()
        self.assertEqual({name.split("/")[0] for name in names}, {top})
        sources = sorted(n for n in os.listdir(os.path.join(support.ROOT, "editors", "emacs")) if n.endswith(".el"))
        self.assertEqual(sorted(n.split("/", 1)[1] for n in names if "/" in n),
                         sorted(sources + ["bidi-lsp-pkg.el"]))
        self.assertIn('(define-package "bidi-lsp" "%s"' % support.VERSION, description)
        self.assertIn('(emacs "28.1")', description)

    def test_installed_with_package_install_file_and_the_mode_turned_on(self):
        work = support.temporary_directory()
        sample = os.path.join(work, "access.c")
        with open(sample, "w", encoding="utf-8") as f:
            f.write(support.TROJAN_C)
        result = support.run(["emacs", "-Q", "--batch", "-l", os.path.join(support.HERE, "emacs-package-test.el"),
                              self.tar, os.path.join(work, "elpa"), support.binary(), sample],
                             stdin=subprocess.DEVNULL, env=dict(os.environ, HOME=work))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        facts = dict(line.split(": ", 1) for line in result.stdout.splitlines())
        self.assertEqual(facts, {
            "installed": "t", "version": support.VERSION, "compiled": str(len(self.sources())),
            "compile log": '""', "autoloaded": "t", "mode": "t", "daemon": "t", "in sync": "t"})

    def sources(self):
        with tarfile.open(self.tar) as tar:
            return [n for n in tar.getnames() if n.endswith(".el") and not n.endswith("-pkg.el")]

    def test_checkdoc_finds_nothing(self):
        work = support.temporary_directory()
        with tarfile.open(self.tar) as tar:
            tar.extractall(work, filter="tar")
        for name in self.sources():
            path = os.path.join(work, name)
            result = support.run(["emacs", "-Q", "--batch", "--eval", "(checkdoc-file %s)" % ('"%s"' % path)],
                                 stdin=subprocess.DEVNULL, cwd=os.path.dirname(path))
            warnings = [line for line in result.stderr.splitlines()
                        if line.strip() and not line.startswith("Loading") and line.strip() != "Warning (emacs):"]
            self.assertEqual(warnings, [], name)


if __name__ == "__main__":
    unittest.main()
