"""Tests of bidi_lsp_client.py's command line, run against the real daemon.

    BIDI_LSP=.build/release/bidi-lsp python3 -m unittest discover -s editors/python -v

Without BIDI_LSP, the daemon is .build/release/bidi-lsp of this checkout.
"""

import os
import subprocess
import sys
import tempfile
import unicodedata
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import bidi_lsp_client  # noqa: E402  (after the path is set)

DAEMON = os.path.abspath(os.environ.get("BIDI_LSP") or os.path.join(ROOT, ".build/release/bidi-lsp"))
SCRIPT = os.path.join(HERE, "bidi_lsp_client.py")

RLM, LRI, PDI, RLO, FSI = "\u200f", "\u2066", "\u2069", "\u202e", "\u2068"

TROJAN = ("int main(void) {\n  int isAdmin = 0;\n  /*" + RLO + " } " + LRI + "if (isAdmin)" + PDI
          + " " + LRI + " begin admins only */\n  return 0;\n}\n")


def run(*args, env_server=True):
    """Runs the command line; returns (status, stdout, stderr)."""
    env = dict(os.environ)
    if env_server:
        env["BIDI_LSP"] = DAEMON
    else:
        env.pop("BIDI_LSP", None)
    done = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=120, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr


class FileTestCase(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def write(self, name, text):
        path = os.path.join(self.directory.name, name)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path

    def read(self, path):
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()


class PureFunctions(unittest.TestCase):
    def test_lines_end_as_the_daemon_ends_them(self):
        self.assertEqual(bidi_lsp_client.split_lines("a\r\nb\rc\nd"), ["a", "b", "c", "d"])
        # U+2028, FF and VT end no line (str.splitlines would split there).
        self.assertEqual(bidi_lsp_client.split_lines("a\u2028b\x0cc\n"), ["a\u2028b\x0cc", ""])

    def test_ranges(self):
        lines = ["abc", "defg", ""]
        parse = bidi_lsp_client.parse_range
        self.assertEqual(parse("2", lines), {"start": {"line": 1, "character": 0},
                                             "end": {"line": 2, "character": 0}})
        self.assertEqual(parse("1-2", lines)["end"], {"line": 2, "character": 0})
        self.assertEqual(parse("3", lines)["end"], {"line": 2, "character": 0})
        self.assertEqual(parse("2:2-2:4", lines), {"start": {"line": 1, "character": 1},
                                                   "end": {"line": 1, "character": 3}})
        for bad in ("0", "4", "x", "1:9-1:9", "2-"):
            with self.assertRaises(bidi_lsp_client.UsageError, msg=bad):
                parse(bad, lines)

    def test_edits_apply_from_the_last(self):
        edits = [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                  "newText": RLM},
                 {"range": {"start": {"line": 1, "character": 1}, "end": {"line": 1, "character": 2}},
                  "newText": ""}]
        self.assertEqual(bidi_lsp_client.apply_edits("ab\r\ncde\n", edits), RLM + "ab\r\nce\n")

    def test_insertions_at_one_position_keep_their_order(self):
        # LSP: the order in the array is the order of the inserted texts.
        at = {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}}
        edits = [{"range": at, "newText": "\u2069"}, {"range": at, "newText": "\u2068"}]
        self.assertEqual(bidi_lsp_client.apply_edits("ab", edits), "a\u2069\u2068b")

    def test_language_ids(self):
        for path, language in (("a.c", "c"), ("b.PY", "python"), ("ar.lproj/L.strings", "strings"),
                               ("x.xlf", "xliff"), ("S.ar.resx", "resx"), ("m.pot", "po"), ("notes", "plaintext")):
            self.assertEqual(bidi_lsp_client.language_id(path), language, path)


class Direction(FileTestCase):
    def test_each_line(self):
        path = self.write("notes.txt", "مرحبا بكم في bidi-lsp\nHello عالم\n12345\n")
        status, out, err = run("direction", path)
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(out.splitlines(), [
            "1: rtl (firstStrong, first strong character at 1:1)",
            "2: ltr (firstStrong, first strong character at 2:1)",
            "3: ltr (fallback)",
        ])

    def test_range_and_strategy(self):
        path = self.write("notes.txt", "one\nHello عالم كبير جدا\nthree\n")
        status, out, _ = run("direction", path, "--range", "2", "--strategy", "estimate")
        self.assertEqual(status, 0)
        self.assertEqual(out, "2: rtl (estimate)\n")


class Visual(FileTestCase):
    def test_visual_order(self):
        path = self.write("v.txt", "abc אבג def\nשלום (world)\n")
        status, out, _ = run("visual", path)
        self.assertEqual(status, 0)
        self.assertEqual(out, "abc גבא def\n(world) םולש\n")

    def test_one_line(self):
        path = self.write("v.txt", "abc\nשלום (world)\n")
        self.assertEqual(run("visual", path, "--range", "2")[1], "(world) םולש\n")

    def test_forced_direction(self):
        path = self.write("v.txt", "abc אבג\n")
        self.assertEqual(run("visual", path, "--direction", "rtl")[1], "גבא abc\n")

    def test_shape(self):
        # Arabic letters joined into presentation forms (lam-alef a ligature) with --shape, not by
        # default into a pipe; the forms' compatibility decompositions give back the letters
        # (NFKC, Python's own Unicode data; a lam-alef ligature decomposes in logical order, so it
        # is reversed here), so the two outputs differ only by the joining.
        path = self.write("a.txt", "Pay مرحبا بالعالم سلام\n")
        plain = run("visual", path)[1]
        shaped = run("visual", path, "--shape")[1]
        self.assertEqual(run("visual", path, "--no-shape")[1], plain)
        self.assertFalse(any(0xFB50 <= ord(c) <= 0xFEFF for c in plain))
        self.assertNotEqual(shaped, plain)
        self.assertTrue(all(0xFE70 <= ord(c) <= 0xFEFC for c in shaped if ord(c) >= 0x0600))
        self.assertIn("\uFEFC", shaped)  # LAM WITH ALEF FINAL FORM, in بالعالم
        def letters(c):
            d = unicodedata.normalize("NFKC", c)
            return d[::-1] if 0xFEF5 <= ord(c) <= 0xFEFC else d
        self.assertEqual("".join(map(letters, shaped)), plain)


class Marks(FileTestCase):
    def test_prints_the_edits_without_changing_the_file(self):
        text = "Hello عالم\nمرحبا\n"
        path = self.write("m.txt", text)
        status, out, _ = run("marks", "direction", path, "--direction", "rtl")
        self.assertEqual(status, 0)
        self.assertEqual(out, "%s:1:1: insert U+200F RIGHT-TO-LEFT MARK\n" % path)
        self.assertEqual(self.read(path), text)

    def test_apply_then_nothing_to_change(self):
        path = self.write("m.txt", "Hello عالم\r\nمرحبا\r\n")
        self.assertEqual(run("marks", "direction", path, "--direction", "rtl", "--check")[0], 1)
        status, out, _ = run("marks", "direction", path, "--direction", "rtl", "--apply")
        self.assertEqual(status, 0)
        self.assertIn("1 edit applied", out)
        self.assertEqual(self.read(path), RLM + "Hello عالم\r\nمرحبا\r\n")
        status, out, _ = run("marks", "direction", path, "--direction", "rtl", "--check")
        self.assertEqual((status, out), (0, "%s: nothing to change\n" % path))

    def test_placeholders_in_a_range_only(self):
        path = self.write("p.txt", "%@ مدفوعات %@ بدون %d\n")
        status, out, _ = run("marks", "placeholders", path, "--range", "1:5-1:14", "--apply")
        self.assertEqual(status, 0, out)
        self.assertEqual(self.read(path), "%@ مدفوعات " + FSI + "%@" + PDI + " بدون %d\n")

    def test_placeholders_of_the_values_a_range_touches(self):
        # In a localization file a range selects whole values: every
        # placeholder of the touched value, and nothing of the next one.
        text = '"k" = "%@ مدفوعات %@ بدون %d";\n"n" = "%@ أخرى";\n'
        path = self.write("p.strings", text)
        status, out, _ = run("marks", "placeholders", path, "--range", "1:12-1:21", "--apply")
        self.assertEqual(status, 0, out)
        self.assertEqual(self.read(path), '"k" = "' + FSI + "%@" + PDI + " مدفوعات " + FSI + "%@" + PDI
                         + " بدون " + FSI + "%d" + PDI + '";\n"n" = "%@ أخرى";\n')

    def test_strip_deletes(self):
        path = self.write("s.txt", "a " + RLO + "b\n")
        status, out, _ = run("marks", "strip", path, "--only", "unpaired")
        self.assertEqual(status, 0)
        self.assertEqual(out, "%s:1:3: delete U+202E RIGHT-TO-LEFT OVERRIDE\n" % path)

    def test_isolate_needs_a_range(self):
        path = self.write("i.txt", "قال user: مرحبا\n")
        status, _, err = run("marks", "isolate", path)
        self.assertEqual(status, 2)
        self.assertIn("needs --range", err)
        status, out, _ = run("marks", "isolate", path, "--range", "1:5-1:10", "--apply")
        self.assertEqual(status, 0)
        self.assertEqual(self.read(path), "قال " + FSI + "user:" + PDI + " مرحبا\n")

    def test_daemon_errors_are_reported(self):
        path = self.write("e.txt", "abc\ndef\n")
        status, _, err = run("marks", "isolate", path, "--range", "1-2")
        self.assertEqual(status, 2)
        self.assertIn("bidi/insertMarks", err)


class Check(FileTestCase):
    def test_hazards_and_exit_status(self):
        trojan = self.write("main.c", TROJAN)
        clean = self.write("clean.txt", "שלום world\n")
        status, out, _ = run("check", trojan, clean)
        self.assertEqual(status, 1)
        lines = out.splitlines()
        self.assertEqual(len(lines), 3, out)
        self.assertTrue(lines[0].startswith("%s:3:5: error: U+202E RIGHT-TO-LEFT OVERRIDE" % trojan), lines[0])
        self.assertTrue(lines[0].endswith("[bidi.inComment]"))
        # Columns count UTF-8 bytes, as compilers and `bidi-lsp check` do.
        self.assertTrue(lines[2].startswith("%s:3:30: error: U+2066" % trojan), lines[2])
        self.assertEqual(run("check", clean), (0, "", ""))

    def test_same_findings_as_bidi_lsp_check(self):
        trojan = self.write("main.c", TROJAN)
        ours = run("check", trojan)[1].splitlines()
        theirs = subprocess.run([DAEMON, "check", trojan], capture_output=True, text=True).stdout.splitlines()
        self.assertEqual([l.split(": ", 2)[:2] for l in ours], [l.split(": ", 2)[:2] for l in theirs])

    def test_missing_and_undecodable_files(self):
        status, _, err = run("check", os.path.join(self.directory.name, "none.txt"))
        self.assertEqual(status, 2)
        self.assertIn("No such file", err)
        path = os.path.join(self.directory.name, "latin1.txt")
        with open(path, "wb") as f:
            f.write(b"caf\xe9\n")
        status, _, err = run("check", path)
        self.assertEqual(status, 2)
        self.assertIn("not UTF-8", err)


class CommandLine(FileTestCase):
    def test_help(self):
        status, out, _ = run("--help")
        self.assertEqual(status, 0)
        for command in ("direction", "visual", "marks", "check", "replay"):
            self.assertIn(command, out)
        status, out, _ = run("marks", "--help")
        self.assertEqual(status, 0)
        self.assertIn("--apply", out)

    def test_usage_errors(self):
        path = self.write("u.txt", "x\n")
        self.assertEqual(run()[0], 2)
        self.assertEqual(run("marks", "sideways", path)[0], 2)
        self.assertEqual(run("marks", "direction", path)[0], 2)  # --direction is needed
        self.assertEqual(run("direction", path, "--range", "9")[0], 2)

    def test_no_daemon(self):
        path = self.write("u.txt", "x\n")
        status, _, err = run("--server", "/nonexistent/bidi-lsp", "direction", path)
        self.assertEqual(status, 2)
        self.assertIn("cannot run /nonexistent/bidi-lsp", err)

    def test_server_option_after_the_command(self):
        path = self.write("u.txt", "שלום\n")
        status, out, _ = run("direction", path, "--server", DAEMON, env_server=False)
        self.assertEqual((status, out), (0, "1: rtl (firstStrong, first strong character at 1:1)\n"))

    def test_session_replay_both_ways(self):
        session = os.path.join(ROOT, "Protocol/examples/demo-session.json")
        for args in (("--server", DAEMON, session), ("--server", DAEMON, "replay", session)):
            status, out, _ = run(*args)
            self.assertEqual(status, 0, args)
            self.assertIn("(server exited with status 0)", out)


if __name__ == "__main__":
    unittest.main()
