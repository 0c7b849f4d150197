"""The repository's .pre-commit-hooks.yaml, run by pre-commit itself
(`pre-commit try-repo`), with the released binary on the PATH: it fails on a
Trojan Source sample and passes on clean Arabic text."""

import os
import sys
import unittest

import support


class PreCommitTests(unittest.TestCase):
    def try_repo(self, name, text):
        project = support.temporary_directory()
        with open(os.path.join(project, name), "w", encoding="utf-8") as f:
            f.write(text)
        git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.org"]
        support.run(git + ["init", "-q"], cwd=project, check=True)
        support.run(git + ["add", name], cwd=project, check=True)
        environment = dict(os.environ, PRE_COMMIT_HOME=support.temporary_directory(),
                           PATH=os.path.dirname(support.binary()) + os.pathsep + os.environ["PATH"])
        return support.run([sys.executable, "-m", "pre_commit", "try-repo", support.ROOT, "bidi-lsp",
                            "--files", name], cwd=project, env=environment)

    def test_the_hook_fails_on_trojan_source(self):
        result = self.try_repo("access.c", support.TROJAN_C)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("Failed", result.stdout)
        self.assertIn("access.c:3:5: error: U+202E RIGHT-TO-LEFT OVERRIDE", result.stdout)
        self.assertIn("[bidi.inComment]", result.stdout)

    def test_the_hook_passes_on_clean_arabic_text(self):
        result = self.try_repo("arabic.txt", support.ARABIC)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertRegex(result.stdout, r"bidi-lsp \(Trojan Source and bidi hazards\)\.+Passed")


if __name__ == "__main__":
    unittest.main()
