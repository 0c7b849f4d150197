"""The wheel (bidi_lsp-V-py3-none-<platform>.whl): `twine check` passes;
installed offline into a fresh venv, it puts `bidi-lsp` in the venv's bin
and makes the client importable as `bidi_lsp`, with its command line."""

import glob
import os
import subprocess
import sys
import unittest
import zipfile

import support


class WheelTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        found = glob.glob(os.path.join(support.DIST, "bidi_lsp-%s-py3-none-*.whl" % support.VERSION))
        assert len(found) == 1, found
        cls.wheel = found[0]
        cls.venv = os.path.join(support.temporary_directory(), "venv")
        subprocess.run([sys.executable, "-m", "venv", cls.venv], check=True)
        cls.install = support.run([os.path.join(cls.venv, "bin", "python"), "-m", "pip", "install", "--no-index",
                                   "--disable-pip-version-check", cls.wheel])

    def test_twine_check_passes(self):
        result = support.run([sys.executable, "-m", "twine", "check", "--strict", self.wheel])
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("PASSED", result.stdout)

    def test_the_tags_are_those_of_the_file_name(self):
        with zipfile.ZipFile(self.wheel) as archive:
            wheel = archive.read("bidi_lsp-%s.dist-info/WHEEL" % support.VERSION).decode()
            metadata = archive.read("bidi_lsp-%s.dist-info/METADATA" % support.VERSION).decode()
            mode = archive.getinfo("bidi_lsp-%s.data/scripts/bidi-lsp" % support.VERSION).external_attr >> 16
        platforms = os.path.basename(self.wheel)[:-len(".whl")].split("-")[-1].split(".")
        self.assertEqual(sorted(line[len("Tag: "):] for line in wheel.splitlines() if line.startswith("Tag: ")),
                         sorted("py3-none-" + platform for platform in platforms))
        self.assertIn("Root-Is-Purelib: false", wheel)
        self.assertIn("\nVersion: %s\n" % support.VERSION, metadata)
        self.assertEqual(mode & 0o777, 0o755)

    def test_pip_installs_it_offline_into_a_fresh_venv(self):
        self.assertEqual(self.install.returncode, 0, self.install.stdout + self.install.stderr)
        bidi_lsp = os.path.join(self.venv, "bin", "bidi-lsp")
        self.assertTrue(os.access(bidi_lsp, os.X_OK))
        version = support.run([bidi_lsp, "--version"], env={})
        self.assertEqual(version.stdout, "bidi-lsp %s (Unicode 17.0.0)\n" % support.VERSION)
        # On the venv's PATH, as an activated venv has it.
        work = support.temporary_directory()
        with open(os.path.join(work, "access.c"), "w", encoding="utf-8") as f:
            f.write(support.TROJAN_C)
        activated = dict(os.environ, PATH=os.path.join(self.venv, "bin") + os.pathsep + "/usr/bin:/bin")
        activated.pop("BIDI_LSP", None)
        check = support.run(["bidi-lsp", "check", "access.c"], cwd=work, env=activated)
        self.assertEqual(check.returncode, 1, check.stderr)

    def test_the_client_is_importable_with_its_command_line(self):
        python = os.path.join(self.venv, "bin", "python")
        work = support.temporary_directory()
        with open(os.path.join(work, "mixed.txt"), "w", encoding="utf-8") as f:
            f.write("Hello world\n" + support.ARABIC)
        with open(os.path.join(work, "access.c"), "w", encoding="utf-8") as f:
            f.write(support.TROJAN_C)
        # Not activated: the venv's bin is not on the PATH, and no BIDI_LSP.
        bare = {"PATH": "/usr/bin:/bin", "HOME": work}
        imported = support.run([python, "-c", "import bidi_lsp; print(bidi_lsp.__version__, bidi_lsp.Client.__name__)"],
                               env=bare, cwd=work)
        self.assertEqual(imported.stdout, "%s Client\n" % support.VERSION, imported.stderr)
        direction = support.run([python, "-m", "bidi_lsp", "direction", "mixed.txt"], env=bare, cwd=work)
        self.assertEqual(direction.returncode, 0, direction.stderr)
        lines = direction.stdout.splitlines()
        self.assertEqual(len(lines), 3, direction.stdout)
        self.assertIn("ltr", lines[0])
        self.assertIn("rtl", lines[1])
        check = support.run([python, "-m", "bidi_lsp", "check", "access.c"], env=bare, cwd=work)
        self.assertEqual(check.returncode, 1, check.stdout + check.stderr)
        self.assertIn("bidi.inComment", check.stdout)


if __name__ == "__main__":
    unittest.main()
