#!/usr/bin/env python3
"""Writes the release's archives (called by scripts/release.sh).

    release-artifacts.py --version V --binary STRIPPED --work DIR --dist DIST

writes into DIST the release archive (.tar.gz), the wheel, the VS Code
extension (.vsix) and the Emacs package (.tar), and lays out DIR/deb, the
Debian package's tree, for dpkg-deb. Every file gets the time
$SOURCE_DATE_EPOCH and the owner root, so that the same sources give the
same bytes. The templates are in packaging/ (README.md there says which).
"""

import argparse
import base64
import fnmatch
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import zipfile
from xml.sax.saxutils import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
# Static: no library, no glibc symbol version, so any x86-64 Linux (glibc
# or musl) runs it.
WHEEL_TAGS = ["py3-none-manylinux_2_17_x86_64", "py3-none-manylinux2014_x86_64", "py3-none-musllinux_1_1_x86_64"]
WHEEL_PLATFORM = "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64"


def source(*parts):
    return os.path.join(ROOT, *parts)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def plugin_files(folder, skip=("test/*", ".gitignore", "doc/tags")):
    """The files of editors/FOLDER a user needs (not its tests), as
    (path inside the plugin, absolute path), sorted."""
    base = source("editors", folder)
    files = []
    for directory, _, names in os.walk(base):
        for name in names:
            full = os.path.join(directory, name)
            inside = os.path.relpath(full, base)
            if not any(fnmatch.fnmatch(inside, pattern) for pattern in skip):
                files.append((inside, full))
    return sorted(files)


def emacs_files():
    return [(os.path.basename(p), p) for _, p in plugin_files("emacs") if p.endswith(".el")]


def copy_plugin(files, destination):
    for inside, full in files:
        target = os.path.join(destination, inside)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(full, target)


def helptags(plugin):
    """Writes PLUGIN/doc/tags with Vim's :helptags (Neovim reads the same)."""
    subprocess.run(["vim", "-Nu", "NONE", "-i", "NONE", "-es", "-c", "helptags " + os.path.join(plugin, "doc"),
                    "-c", "qa!"], check=True, stdin=subprocess.DEVNULL)


def describe_emacs_package(directory, autoloads):
    """Writes DIRECTORY/bidi-lsp-pkg.el (and the autoloads) with Emacs."""
    command = ["emacs", "-Q", "--batch", "-l", source("packaging", "emacs", "release.el"),
               "-f", "bidi-lsp-release-describe", directory] + (["autoloads"] if autoloads else [])
    subprocess.run(command, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def tree(root):
    """The files and folders under ROOT, sorted, as (path inside, absolute)."""
    entries = []
    for directory, folders, names in os.walk(root):
        for name in folders + names:
            full = os.path.join(directory, name)
            entries.append((os.path.relpath(full, root), full))
    return sorted(entries)


def normalize(root):
    """Modes 0755 for folders and executables, 0644 for the rest; times EPOCH."""
    for _, full in tree(root) + [(".", root)]:
        executable = os.path.isdir(full) or os.access(full, os.X_OK)
        os.chmod(full, 0o755 if executable else 0o644)
        os.utime(full, (EPOCH, EPOCH), follow_symlinks=False)


def write_tar(path, root, top, compress):
    """ROOT's tree as a tar whose one top folder is TOP."""
    normalize(root)

    def owned_by_root(info):
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        info.mtime = EPOCH
        return info

    with open(path, "wb") as raw:
        stream = gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) if compress else raw
        with tarfile.open(fileobj=stream, mode="w", format=tarfile.GNU_FORMAT) as tar:
            tar.add(root, arcname=top, recursive=False, filter=owned_by_root)
            for inside, full in tree(root):
                tar.add(full, arcname=top + "/" + inside, recursive=False, filter=owned_by_root)
        if compress:
            stream.close()


def zip_entry(archive, name, data, executable=False):
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o100755 if executable else 0o100644) << 16
    archive.writestr(info, data)


# -- the release archive --------------------------------------------------


def release_archive(version, binary, work, dist):
    top = "bidi-lsp-%s" % version
    root = os.path.join(work, "archive")
    os.makedirs(os.path.join(root, "bin"))
    shutil.copyfile(binary, os.path.join(root, "bin", "bidi-lsp"))
    os.chmod(os.path.join(root, "bin", "bidi-lsp"), 0o755)
    man = os.path.join(root, "share", "man", "man1")
    os.makedirs(man)
    shutil.copyfile(source("packaging", "man", "bidi-lsp.1"), os.path.join(man, "bidi-lsp.1"))
    for folder in ("vim", "neovim"):
        plugin = os.path.join(root, "share", "bidi-lsp", folder)
        copy_plugin(plugin_files(folder), plugin)
        helptags(plugin)
    copy_plugin(emacs_files(), os.path.join(root, "share", "bidi-lsp", "emacs"))
    shutil.copyfile(source("README.md"), os.path.join(root, "README.md"))
    write_tar(os.path.join(dist, "%s-linux-x86_64.tar.gz" % top), root, top, compress=True)


# -- the Debian package's tree --------------------------------------------


def debian_tree(version, binary, work):
    root = os.path.join(work, "deb")
    usr = os.path.join(root, "usr")
    os.makedirs(os.path.join(usr, "bin"))
    shutil.copyfile(binary, os.path.join(usr, "bin", "bidi-lsp"))
    os.chmod(os.path.join(usr, "bin", "bidi-lsp"), 0o755)

    def gzipped(source_path, target):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0,
                                                      compresslevel=9) as out:
            out.write(read(source_path))

    gzipped(source("packaging", "man", "bidi-lsp.1"), os.path.join(usr, "share", "man", "man1", "bidi-lsp.1.gz"))
    doc = os.path.join(usr, "share", "doc", "bidi-lsp")
    gzipped(source("packaging", "debian", "changelog"), os.path.join(doc, "changelog.Debian.gz"))
    shutil.copyfile(source("packaging", "debian", "copyright"), os.path.join(doc, "copyright"))
    gzipped(source("README.md"), os.path.join(doc, "README.md.gz"))
    overrides = os.path.join(usr, "share", "lintian", "overrides")
    os.makedirs(overrides)
    shutil.copyfile(source("packaging", "debian", "lintian-overrides"), os.path.join(overrides, "bidi-lsp"))
    # Optional packages where Debian's vim and neovim look ('packpath').
    for folder, packpath in (("vim", "vim/vimfiles"), ("neovim", "nvim/site")):
        plugin = os.path.join(usr, "share", packpath, "pack", "bidi-lsp", "opt", "bidi-lsp")
        copy_plugin(plugin_files(folder), plugin)
        helptags(plugin)
    # Where Debian's Emacs activates packages at startup (package-directory-list).
    elpa = os.path.join(usr, "share", "emacs", "site-lisp", "elpa", "bidi-lsp-%s" % version)
    copy_plugin(emacs_files(), elpa)
    describe_emacs_package(elpa, autoloads=True)

    normalize(root)
    control = os.path.join(root, "DEBIAN")
    os.makedirs(control)
    sums = []
    size = 0
    for inside, full in tree(root):
        if os.path.isfile(full) and not inside.startswith("DEBIAN"):
            sums.append("%s  %s\n" % (hashlib.md5(read(full)).hexdigest(), inside))
            size += (os.path.getsize(full) + 1023) // 1024
    with open(os.path.join(control, "md5sums"), "w") as f:
        f.writelines(sums)
    text = read(source("packaging", "debian", "control")).decode()
    text = text.replace("@VERSION@", version).replace("@INSTALLED_SIZE@", str(size))
    with open(os.path.join(control, "control"), "w") as f:
        f.write(text)
    normalize(root)


# -- the wheel ------------------------------------------------------------


def wheel(version, binary, dist):
    name = "bidi_lsp-%s" % version
    info = name + ".dist-info"
    metadata = read(source("packaging", "python", "METADATA")).decode().replace("@VERSION@", version)
    metadata += read(source("packaging", "python", "README.md")).decode()
    entries = [
        ("bidi_lsp/__init__.py", read(source("editors", "python", "bidi_lsp_client.py")), False),
        ("bidi_lsp/__main__.py", read(source("packaging", "python", "__main__.py")), False),
        (name + ".data/scripts/bidi-lsp", read(binary), True),
        (info + "/METADATA", metadata.encode(), False),
        (info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: bidi-lsp (scripts/release-artifacts.py)\n"
                           "Root-Is-Purelib: false\n" + "".join("Tag: %s\n" % t for t in WHEEL_TAGS)).encode(),
         False),
    ]
    record = []
    for path, data, _ in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append("%s,sha256=%s,%d\n" % (path, digest, len(data)))
    record.append(info + "/RECORD,,\n")
    entries.append((info + "/RECORD", "".join(record).encode(), False))
    path = os.path.join(dist, "%s-py3-none-%s.whl" % (name, WHEEL_PLATFORM))
    with zipfile.ZipFile(path, "w") as archive:
        for entry, data, executable in entries:
            zip_entry(archive, entry, data, executable)


# -- the VS Code extension ------------------------------------------------


def vsix(version, binary, dist):
    base = source("editors", "vscode")
    manifest = json.loads(read(os.path.join(base, "package.json")))
    if manifest["version"] != version:
        raise SystemExit("release: editors/vscode/package.json says %s, not %s" % (manifest["version"], version))
    ignored = [line.strip() for line in read(os.path.join(base, ".vscodeignore")).decode().splitlines()
               if line.strip() and not line.startswith("#")] + [".vscodeignore", "node_modules/**", "README.md"]
    files = [(inside, read(full), False) for inside, full in plugin_files("vscode", skip=())
             if not any(fnmatch.fnmatch(inside, pattern) for pattern in ignored)]
    files += [("README.md", read(source("packaging", "vscode", "README.md")), False),
              ("bin/bidi-lsp", read(binary), True)]
    text = read(source("packaging", "vscode", "extension.vsixmanifest")).decode()
    repository = manifest["repository"]["url"]
    for key, value in (("@NAME@", manifest["name"]), ("@VERSION@", version), ("@PUBLISHER@", manifest["publisher"]),
                       ("@DISPLAY_NAME@", manifest["displayName"]), ("@DESCRIPTION@", manifest["description"]),
                       ("@TAGS@", ",".join(manifest["keywords"])), ("@CATEGORIES@", ",".join(manifest["categories"])),
                       ("@ENGINE@", manifest["engines"]["vscode"]), ("@REPOSITORY@", repository)):
        text = text.replace(key, escape(value, {'"': "&quot;"}))
    extensions = sorted({os.path.splitext(inside)[1] for inside, _, _ in files} - {""} | {".vsixmanifest"})
    types = {".js": "application/javascript", ".json": "application/json", ".md": "text/markdown",
             ".vsixmanifest": "text/xml"}
    content_types = ('<?xml version="1.0" encoding="utf-8"?>\n'
                     '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                     + "".join('<Default Extension="%s" ContentType="%s"/>' % (e, types.get(e, "application/octet-stream"))
                               for e in extensions)
                     + "".join('<Override PartName="/extension/%s" ContentType="application/octet-stream"/>' % inside
                               for inside, _, _ in files if not os.path.splitext(inside)[1])
                     + "</Types>\n")
    with zipfile.ZipFile(os.path.join(dist, "bidi-lsp-%s.vsix" % version), "w") as archive:
        zip_entry(archive, "extension.vsixmanifest", text.encode())
        zip_entry(archive, "[Content_Types].xml", content_types.encode())
        for inside, data, executable in sorted(files):
            zip_entry(archive, "extension/" + inside, data, executable)


# -- the Emacs package ----------------------------------------------------


def emacs_package(version, work, dist):
    top = "bidi-lsp-%s" % version
    root = os.path.join(work, "emacs", top)
    copy_plugin(emacs_files(), root)
    describe_emacs_package(root, autoloads=False)
    write_tar(os.path.join(dist, top + ".tar"), root, top, compress=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    for option in ("--version", "--binary", "--work", "--dist"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    release_archive(args.version, args.binary, args.work, args.dist)
    debian_tree(args.version, args.binary, args.work)
    wheel(args.version, args.binary, args.dist)
    vsix(args.version, args.binary, args.dist)
    emacs_package(args.version, args.work, args.dist)


if __name__ == "__main__":
    main()
