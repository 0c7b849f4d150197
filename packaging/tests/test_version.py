"""scripts/release-version.py: the one version and its copies. On a copy of
the files it reads, --check passes, fails naming a copy that differs, and
--set rewrites the definition and every copy."""

import importlib.util
import os
import shutil
import subprocess
import sys
import unittest

import support

SCRIPT = os.path.join(support.ROOT, "scripts", "release-version.py")


def load():
    spec = importlib.util.spec_from_file_location("release_version", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class VersionTests(unittest.TestCase):
    def setUp(self):
        module = load()
        self.copy = support.temporary_directory()
        paths = [module.DEFINITION[0], "scripts/release-version.py"]
        for path, _, _ in module.COPIES:
            paths += module.files(path)
        self.paths = sorted(set(paths))
        for path in self.paths:
            os.makedirs(os.path.dirname(os.path.join(self.copy, path)), exist_ok=True)
            shutil.copyfile(os.path.join(support.ROOT, path), os.path.join(self.copy, path))
        self.script = os.path.join(self.copy, "scripts", "release-version.py")

    def run_script(self, *arguments):
        return subprocess.run([sys.executable, self.script] + list(arguments), capture_output=True, text=True)

    def test_every_copy_is_checked_and_a_difference_fails(self):
        self.assertGreaterEqual(len(self.paths), 20, "the definition, 11 copies and the recorded transcripts")
        self.assertEqual(self.run_script("--check").returncode, 0)
        self.assertEqual(self.run_script().stdout, support.VERSION + "\n")
        for path in ("editors/vscode/package.json", "editors/emacs/bidi-lsp.el", "packaging/man/bidi-lsp.1",
                     "packaging/debian/changelog", "editors/python/bidi_lsp_client.py"):
            full = os.path.join(self.copy, path)
            with open(full, encoding="utf-8") as f:
                original = f.read()
            with open(full, "w", encoding="utf-8") as f:
                f.write(original.replace(support.VERSION, "0.0.1", 1))
            result = self.run_script("--check")
            self.assertEqual(result.returncode, 1, path)
            self.assertIn("%s: 0.0.1, expected %s" % (path, support.VERSION), result.stderr)
            with open(full, "w", encoding="utf-8") as f:
                f.write(original)

    def test_set_rewrites_the_definition_and_every_copy(self):
        result = self.run_script("--set", "7.8.9")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.run_script().stdout, "7.8.9\n")
        for path in self.paths:
            if path.endswith(".py") and "scripts/" in path:
                continue
            with open(os.path.join(self.copy, path), encoding="utf-8") as f:
                text = f.read()
            self.assertIn("7.8.9", text, path)
            self.assertNotIn('"%s"' % support.VERSION, text, path)


if __name__ == "__main__":
    unittest.main()
