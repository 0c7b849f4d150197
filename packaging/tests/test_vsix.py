"""The VS Code extension (bidi-lsp-V.vsix): the zip VS Code installs, its
manifest and content types read back with an XML parser, its files, and
the extension unpacked and activated (against the fake `vscode` module the
extension's own tests use: no VS Code binary is available) with no
setting, running its bundled daemon."""

import json
import os
import re
import unittest
import xml.etree.ElementTree as ElementTree
import zipfile

import support

VSX = "{http://schemas.microsoft.com/developer/vsx-schema/2011}"
OPC = "{http://schemas.openxmlformats.org/package/2006/content-types}"


class VSIXTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.vsix = support.artifact("bidi-lsp-%s.vsix" % support.VERSION)
        with zipfile.ZipFile(cls.vsix) as archive:
            cls.names = archive.namelist()
            cls.files = {name: archive.read(name) for name in cls.names}
            cls.modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        with open(os.path.join(support.ROOT, "editors", "vscode", "package.json"), encoding="utf-8") as f:
            cls.package = json.load(f)

    def test_the_files_are_the_extension_and_its_daemon(self):
        self.assertIn("extension.vsixmanifest", self.names)
        self.assertIn("[Content_Types].xml", self.names)
        expected = {"extension/package.json", "extension/extension.js", "extension/README.md",
                    "extension/bin/bidi-lsp"}
        expected |= {"extension/lib/" + n for n in os.listdir(os.path.join(support.ROOT, "editors", "vscode", "lib"))}
        self.assertEqual(set(self.names) - {"extension.vsixmanifest", "[Content_Types].xml"}, expected)
        self.assertEqual(self.modes["extension/bin/bidi-lsp"] & 0o777, 0o755)
        with open(support.binary(), "rb") as f:
            self.assertEqual(self.files["extension/bin/bidi-lsp"], f.read(), "the release's binary")
        self.assertEqual(json.loads(self.files["extension/package.json"]), self.package)
        # Every relative require() of the packaged code is packaged.
        for name in self.names:
            if name.endswith(".js"):
                for required in re.findall(r"require\('(\.[^']+)'\)", self.files[name].decode()):
                    target = os.path.normpath(os.path.join(os.path.dirname(name), required))
                    self.assertTrue(target in self.names or target + ".js" in self.names, (name, required))

    def test_the_manifest_agrees_with_package_json(self):
        manifest = ElementTree.fromstring(self.files["extension.vsixmanifest"])
        identity = manifest.find(VSX + "Metadata/" + VSX + "Identity")
        self.assertEqual(identity.get("Id"), self.package["name"])
        self.assertEqual(identity.get("Publisher"), self.package["publisher"])
        self.assertEqual(identity.get("Version"), support.VERSION)
        self.assertEqual(self.package["version"], support.VERSION)
        self.assertEqual(identity.get("TargetPlatform"), "linux-x64")
        self.assertEqual(manifest.find(VSX + "Metadata/" + VSX + "DisplayName").text, self.package["displayName"])
        properties = {p.get("Id"): p.get("Value") for p in manifest.iter(VSX + "Property")}
        self.assertEqual(properties["Microsoft.VisualStudio.Code.Engine"], self.package["engines"]["vscode"])
        self.assertEqual(manifest.find(VSX + "Installation/" + VSX + "InstallationTarget").get("Id"),
                         "Microsoft.VisualStudio.Code")
        assets = {a.get("Type"): a.get("Path") for a in manifest.iter(VSX + "Asset")}
        self.assertEqual(assets["Microsoft.VisualStudio.Code.Manifest"], "extension/package.json")
        for path in assets.values():
            self.assertIn(path, self.names)

    def test_every_file_has_a_content_type(self):
        types = ElementTree.fromstring(self.files["[Content_Types].xml"])
        defaults = {d.get("Extension") for d in types.iter(OPC + "Default")}
        overrides = {o.get("PartName") for o in types.iter(OPC + "Override")}
        for name in self.names:
            if name == "[Content_Types].xml":
                continue
            extension = os.path.splitext(name)[1]
            self.assertTrue(extension in defaults or "/" + name in overrides, name)

    def test_the_unpacked_extension_runs_its_bundled_daemon(self):
        unpacked = support.temporary_directory()
        with zipfile.ZipFile(self.vsix) as archive:
            for info in archive.infolist():
                archive.extract(info, unpacked)
                os.chmod(os.path.join(unpacked, info.filename), (info.external_attr >> 16) & 0o777)
        extension = os.path.join(unpacked, "extension")
        result = support.run(["node", os.path.join(support.HERE, "vsix-activate.js"), extension],
                             env=dict(os.environ, PATH="/usr/bin:/bin"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout),
                         {"command": os.path.join(extension, "bin", "bidi-lsp"), "running": True})


if __name__ == "__main__":
    unittest.main()
