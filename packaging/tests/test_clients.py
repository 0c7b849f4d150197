"""README.md's configuration snippets for generic LSP clients, each parsed
by its format's own parser (TOML, JSON, Lua) and checked to start
`bidi-lsp`: the blocks that follow a `<!-- client: NAME -->` line.

Only parsed: Helix, Zed and Sublime Text are not in Debian; Debian 12's
Neovim is 0.7 (no `vim.lsp.config`), so its LuaJIT compiles the Lua snippet
without running it. Kate's snippet was also driven for real (README.md,
Documentation/kate-trojan-source.png)."""

import json
import os
import re
import subprocess
import tomllib
import unittest

import support


def snippets():
    with open(os.path.join(support.ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    return {name: body for name, body in
            re.findall(r"<!-- client: (\w+) -->\n```\w+\n(.*?)\n```", text, re.S)}


class ClientSnippetTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.snippets = snippets()

    def test_every_client_has_a_snippet(self):
        self.assertEqual(sorted(self.snippets), ["helix", "kate", "neovim", "sublime", "zed"])

    def test_helix(self):
        config = tomllib.loads(self.snippets["helix"])
        self.assertEqual(config["language-server"]["bidi-lsp"]["command"], "bidi-lsp")
        for language in config["language"]:
            self.assertIn("bidi-lsp", language["language-servers"], language["name"])

    def test_zed(self):
        config = json.loads(self.snippets["zed"])
        self.assertEqual(config["lsp"]["bidi-lsp"]["binary"]["path"], "bidi-lsp")
        for language, settings in config["languages"].items():
            self.assertIn("bidi-lsp", settings["language_servers"], language)

    def test_kate(self):
        servers = json.loads(self.snippets["kate"])["servers"]
        for name, server in servers.items():
            self.assertEqual(server["command"], ["bidi-lsp"], name)
            re.compile(server["highlightingModeRegex"])
        self.assertRegex("Markdown", servers["bidi-lsp"]["highlightingModeRegex"])
        self.assertRegex("C++", servers["c"]["highlightingModeRegex"])

    def test_sublime(self):
        client = json.loads(self.snippets["sublime"])["clients"]["bidi-lsp"]
        self.assertEqual((client["enabled"], client["command"]), (True, ["bidi-lsp"]))

    def test_neovim_lua_compiles(self):
        lua = os.path.join(support.temporary_directory(), "bidi_lsp.lua")
        with open(lua, "w", encoding="utf-8") as f:
            f.write(self.snippets["neovim"])
        probe = ("lua local f = io.open(%r); local chunk, err = loadstring(f:read('*a')); f:close();"
                 " io.stdout:write(chunk and 'compiled' or err)" % lua)
        result = support.run(["nvim", "--clean", "--headless", "-c", probe, "-c", "qa!"], stdin=subprocess.DEVNULL)
        self.assertEqual(result.stdout, "compiled", result.stderr)
        self.assertIn("cmd = { 'bidi-lsp' }", self.snippets["neovim"])


if __name__ == "__main__":
    unittest.main()
