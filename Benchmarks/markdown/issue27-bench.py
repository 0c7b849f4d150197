#!/usr/bin/env python3
"""Issue 27's speed points: Markdown and subtitles in the daemon and in check.

Usage:
  issue27-bench.py make DIR            writes the documents (seeded) into DIR
  issue27-bench.py open DAEMON DIR     (a) didOpen to the first answer, as
                                       Markdown/SRT and as plain text, interleaved
  issue27-bench.py edit DAEMON DIR     (b) edit + naturalDirection p50/p99,
                                       100,000 blocks vs 1,000 blocks
  issue27-bench.py check BINARY DIR    (c) bidi-lsp check over ~100 MB of Markdown
                                       in MB/s, with rg -j1 as an anchor
  issue27-bench.py check-anchors BINARY DIR [BEFORE]
                                       (c) with CPU and wall clock apart, on one
                                       processor too, and rg -j1 and cmark-gfm
                                       (and a BEFORE binary) interleaved
  issue27-bench.py make-real SRC DIR [MB]
                                       writes DIR/real-0.md ... real-6.md, ~MB
                                       (default 100) of real Markdown: the .md
                                       files under SRC, concatenated
  issue27-bench.py check-real BINARY DIR [BEFORE]
                                       check-anchors over DIR/real-*.md
  issue27-bench.py density BINARY FILE...
                                       each file's findings and output size

The documents: blocks.md (100,000 blocks: prose in Arabic, Hebrew, Persian and
English, headings, list items with links, quotes with emphasis and code spans,
tables, fenced code, reference links and their definitions), small.md (1,000
blocks, the same mix), cues.srt (50,000 cues of one or two lines), and
check-N.md (seven documents of 15.4 MB, 108 MB, other seeds). The same bytes are
opened as plain text (languageId plaintext) for the ratios.

The realistic corpus (make-real): the Markdown files directly under SRC
(e.g. real ar/fa/he READMEs and docs, whose text stays out of the repository:
Tests/MarkdownTests/Corpus/real/SOURCES.txt says where they come from), minus
those whose name starts with "derived-" (copies of the others with a BOM or
CRLF added: a BOM in the middle of a file is a U+FEFF character, and one CR
anywhere makes the whole file take the joined-lines path). Each real-N.md is
whole copies of those files, each copy in a seeded random order (seed 100 + N),
joined by one blank line ("\n\n" after a file's last line feed is stripped),
until the file reaches MB / 7 megabytes. A file's front matter is only front
matter at the top of a real-N.md; further copies read it as a thematic break
and a setext heading, as any Markdown reader would the concatenation.

"First answer": the time from sending didOpen to the answer of a
bidi/naturalDirection request on lines 0-59 sent right after it (wall clock,
the daemon's CPU time beside it). Each round opens every document in a new
daemon, in turn, so the two sides of a ratio are measured close together.
"""
import json, os, random, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'editors', 'python'))
from bidi_lsp_client import frame, read_message  # the one framing

AR = "مرحبا العالم الحزمة متاح الآن في جميع المتاجر يثبّت الأدوات كتاب".split()
HE = "שלום עולם ספר חבילה זמין עכשיו בכל החנויות מתקין".split()
FA = "سلام دنیا کتاب بسته اکنون در همه فروشگاه".split()
EN = "Apple Pay npm install React library the build check file".split()


def words(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        out.append(rng.choice(AR if r < 0.45 else HE if r < 0.6 else FA if r < 0.7 else EN))
    return " ".join(out)


def markdown(blocks, seed):
    rng = random.Random(seed)
    out = []
    for i in range(blocks):
        k = i % 10
        if k == 0: out.append("# " + words(rng, 6))
        elif k == 1: out.append("- [%s](https://example.com/%d) %s" % (words(rng, 2), i, words(rng, 10)))
        elif k == 2: out.append("> **%s** `npm install` %s" % (words(rng, 2), words(rng, 12)))
        elif k == 3: out.append(words(rng, 14) + " *" + words(rng, 2) + "* " + words(rng, 10))
        elif k == 4: out.append("| %s | %s |\n| --- | --- |\n| %s | `x` |" % (words(rng, 4), words(rng, 3), words(rng, 3)))
        elif k == 5: out.append("```python\nprint('%s')\nx = 1\n```" % words(rng, 3))
        elif k == 6: out.append("See [%s][ref%d] %s" % (words(rng, 2), i % 50, words(rng, 12)))
        elif k == 7: out.append("1. " + words(rng, 12) + "\n2. " + words(rng, 8))
        elif k == 8: out.append(words(rng, 20) + "\n" + words(rng, 15))
        else: out.append("[ref%d]: https://example.com/ref/%d" % (i // 200 % 50, i) if i % 200 == 9 else words(rng, 16))
        out.append("")
    return "\n".join(out)


def subrip(cues, seed):
    rng = random.Random(seed)
    out = []
    for i in range(cues):
        s = i * 2
        t = "%02d:%02d:%02d,000 --> %02d:%02d:%02d,500" % (s // 3600, s // 60 % 60, s % 60, s // 3600, s // 60 % 60, s % 60)
        lines = ["- " + words(rng, 5) + "!"] if i % 3 else [words(rng, 6) + "؟", "<i>" + words(rng, 4) + "</i>"]
        out.append("%d\n%s\n%s\n" % (i + 1, t, "\n".join(lines)))
    return "\n".join(out)


def make(folder):
    os.makedirs(folder, exist_ok=True)
    docs = {"blocks.md": markdown(100000, 1), "small.md": markdown(1000, 2), "cues.srt": subrip(50000, 3)}
    for i in range(7): docs["check-%d.md" % i] = markdown(100000, 10 + i)
    for name, text in docs.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f: f.write(text)
        print("%s: %.1f MB, %d lines" % (name, len(text.encode()) / 1e6, text.count("\n") + 1))


PUBLISH = b'"method":"textDocument/publishDiagnostics"'


class Daemon:
    def __init__(self, binary, options=None):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.got = {}; self.diag = None; self.next = 1
        threading.Thread(target=self.reader, daemon=True).start()
        params = {"capabilities": {}}
        if options: params["initializationOptions"] = {"bidi": options}
        self.call("initialize", params)
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def reader(self):
        # Each message is stamped when its bytes have arrived. A publish is
        # not parsed (its method is the second member the daemon writes): a
        # document's 1,000 diagnostics take milliseconds of json.loads with
        # the GIL held, which the next answer's stamp used to include.
        while True:
            framed = read_message(self.p.stdout)
            if framed is None: return
            arrived = time.time()
            if PUBLISH in framed[1][:100]:
                if self.diag is None: self.diag = arrived
                continue
            m = json.loads(framed[1])
            if "id" in m and "method" not in m: self.got[m["id"]] = arrived

    def send(self, o):
        self.p.stdin.write(frame(o)); self.p.stdin.flush()

    def call(self, method, params):
        i = self.next; self.next += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        while i not in self.got: time.sleep(0.0002)
        return self.got[i]

    def cpu(self):
        with open("/proc/%d/stat" % self.p.pid) as f: parts = f.read().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")

    def open(self, uri, lang, text):
        self.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                   "params": {"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}}})

    def direction(self, uri, line, end=None):
        return self.call("bidi/naturalDirection", {"textDocument": {"uri": uri}, "range": {
            "start": {"line": line, "character": 0}, "end": {"line": end or line + 1, "character": 0}}})

    def close(self):
        try:
            self.call("shutdown", None)
            self.send({"jsonrpc": "2.0", "method": "exit"}); self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def open_bench(binary, folder, rounds=5):
    cases = [("blocks.md", "markdown"), ("blocks.md", "plaintext"), ("cues.srt", "srt"), ("cues.srt", "plaintext")]
    texts = {name: open(os.path.join(folder, name), encoding="utf-8").read() for name, _ in cases}
    times = {c: [] for c in cases}
    for r in range(rounds):
        for name, lang in cases:
            d = Daemon(binary)
            uri = "file://%s/%s" % (folder, name) if lang != "plaintext" else "file://%s/%s.txt" % (folder, name)
            c0 = d.cpu(); t0 = time.time()
            d.open(uri, lang, texts[name])
            answered = d.direction(uri, 0, 60)
            first = answered - t0; cpu = d.cpu() - c0
            while d.diag is None and time.time() - t0 < 120: time.sleep(0.001)
            publish = (d.diag or 0) - t0
            times[(name, lang)].append((first, cpu, publish))
            d.close()
    for name, lang in cases:
        t = sorted(times[(name, lang)])
        print("%-10s %-10s first answer (wall s): %s; median %.3f; publish median %.2f s" % (
            name, lang, " ".join("%.3f" % x[0] for x in times[(name, lang)]), t[len(t) // 2][0],
            sorted(x[2] for x in t)[len(t) // 2]))
        print("%-10s %-10s first answer (daemon CPU s): %s" % (
            name, lang, " ".join("%.2f" % x[1] for x in times[(name, lang)])))
    for name, lang in [("blocks.md", "markdown"), ("cues.srt", "srt")]:
        for k, what in [(0, "wall"), (1, "CPU")]:
            ratios = sorted(a[k] / b[k] for a, b in zip(times[(name, lang)], times[(name, "plaintext")]))
            print("%s as %s / as plaintext (%s), per round: %s; median %.2fx" % (
                name, lang, what, " ".join("%.2f" % x for x in ratios), ratios[len(ratios) // 2]))


def edit_bench(binary, folder, edits=200, rounds=1):
    """Twice: with the default rules (each edit republishes the document's
    diagnostics: ~40,000 bidi.blockDirection warnings in blocks.md), and with
    bidi.blockDirection off (the edit's own cost: re-reading, the request)."""
    edits = int(os.environ.get("EDITS", edits))
    for label, options in [("blockDirection off", {"diagnostics": {"blockDirection": False}}), ("default rules", None)]:
        print("-- %s" % label)
        edit_rounds(binary, folder, edits, rounds, options)


def edit_rounds(binary, folder, edits, rounds, options):
    results = {}
    cpus = {}
    for r in range(rounds):
        for name in ["blocks.md", "small.md"]:
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            lines = text.split("\n")
            rng = random.Random(7 + r)
            # Paragraph lines (prose, not markup), to edit in the middle.
            candidates = [i for i, l in enumerate(lines) if l and l[0] not in "#->|`[1234!" and not l.startswith("print")
                          and not l.startswith("x =")]
            d = Daemon(binary, options)
            uri = "file://%s/%s" % (folder, name)
            d.open(uri, "markdown", text)
            d.direction(uri, 0, 60)
            t0 = time.time()
            while d.diag is None and time.time() - t0 < 300: time.sleep(0.001)
            lat = []
            cpu0 = d.cpu()
            for k in range(edits):
                line = rng.choice(candidates)
                sent = time.time()
                d.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": uri, "version": k + 2},
                    "contentChanges": [{"range": {"start": {"line": line, "character": 0},
                                                  "end": {"line": line, "character": 0}}, "text": "كلمة "}]}})
                answered = d.direction(uri, line)
                lat.append((answered - sent) * 1000)
                time.sleep(0.02)
            # The daemon's CPU over the edits (its publishes included), per edit.
            cpu = (d.cpu() - cpu0) * 1000 / edits
            d.close()
            results.setdefault(name, []).extend(lat)
            cpus.setdefault(name, []).append(cpu)
            lat.sort()
            print("round %d %-9s %d edits: p50 %.2f ms, p99 %.2f ms, max %.2f ms; daemon CPU %.2f ms an edit" % (
                r, name, len(lat), lat[len(lat) // 2], lat[int(len(lat) * 0.99) - 1], lat[-1], cpu))
    p99 = {n: sorted(v)[int(len(v) * 0.99) - 1] for n, v in results.items()}
    print("p99 over all rounds: 100,000 blocks %.2f ms, 1,000 blocks %.2f ms: ratio %.2fx" % (
        p99["blocks.md"], p99["small.md"], p99["blocks.md"] / p99["small.md"]))
    cpu = {n: sum(v) / len(v) for n, v in cpus.items()}
    print("daemon CPU an edit: 100,000 blocks %.2f ms, 1,000 blocks %.2f ms: ratio %.2fx" % (
        cpu["blocks.md"], cpu["small.md"], cpu["blocks.md"] / cpu["small.md"]))


def check_bench(binary, folder, rounds=2):
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("check-"))
    size = sum(os.path.getsize(f) for f in files) / 1e6
    pattern = "[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]"
    for r in range(rounds):
        for label, cmd in [("check", [binary, "check"] + files), ("rg -j1", ["rg", "-j1", "-c", pattern] + files)]:
            before = os.times()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            after = os.times()
            cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
            print("round %d %-7s %.1f MB: CPU %.2f s = %.1f MB/s" % (r, label, size, cpu, size / cpu))


def timed(cmds):
    """CPU (user + system of the children) and wall seconds of running cmds in turn."""
    before = os.times(); t0 = time.time()
    for cmd in cmds: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return cpu, time.time() - t0


def make_real(source, folder, megabytes=100.0, parts=7):
    names = sorted(f for f in os.listdir(source)
                   if f.endswith(".md") and not f.startswith("derived-") and os.path.isfile(os.path.join(source, f)))
    texts = []
    for name in names:
        with open(os.path.join(source, name), "rb") as f: texts.append(f.read().rstrip(b"\n"))
    os.makedirs(folder, exist_ok=True)
    target = megabytes * 1e6 / parts
    print("%d files, %d bytes" % (len(texts), sum(len(t) for t in texts)))
    for n in range(parts):
        rng = random.Random(100 + n)
        out = []; size = 0
        while size < target:
            order = list(range(len(texts))); rng.shuffle(order)
            for i in order:
                out.append(texts[i]); size += len(texts[i]) + 2
        data = b"\n\n".join(out) + b"\n"
        with open(os.path.join(folder, "real-%d.md" % n), "wb") as f: f.write(data)
        print("real-%d.md: %.1f MB, %d lines" % (n, len(data) / 1e6, data.count(b"\n")))


def density(binary, files):
    """Findings per file: how many (JSON), on how many distinct lines, the
    text output's size against the input's, and the blocks with inline
    content (paragraphs, headings, table cells) as cmark-gfm reads them."""
    for name in files:
        size = os.path.getsize(name)
        out = subprocess.run([binary, "check", "--format", "json", name], stdout=subprocess.PIPE).stdout
        found = json.loads(out)
        items = found if isinstance(found, list) else found.get("findings", found.get("diagnostics", []))
        lines = {(f.get("file"), f.get("line")) for f in items}
        text = subprocess.run([binary, "check", name], stdout=subprocess.PIPE).stdout
        xml = subprocess.run(["cmark-gfm", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist",
                              "-t", "xml", name], stdout=subprocess.PIPE).stdout
        blocks = sum(xml.count(tag) for tag in [b"<paragraph", b"<heading", b"<table_cell"])
        codes = {}
        for f in items: codes[f.get("code")] = codes.get(f.get("code"), 0) + 1
        print("%s: %.1f MB, %d findings (%.0f per MB) on %d lines; %d blocks with inline content (cmark-gfm), "
              "%.1f%% of them with a finding line; text output %.1f MB (%.0f%% of the input); %s" % (
                  os.path.basename(name), size / 1e6, len(items), len(items) / (size / 1e6), len(lines), blocks,
                  100.0 * len(lines) / max(blocks, 1), len(text) / 1e6, 100.0 * len(text) / size,
                  ", ".join("%s %d" % kv for kv in sorted(codes.items()))), flush=True)


def check_anchors_bench(binary, folder, before=None, rounds=3, prefix="check-"):
    """(c) with its anchors, interleaved: bidi-lsp check over check-*.md (on
    both processors, and pinned to one with taskset), the binary before the
    change if given, rg -j1, and cmark-gfm with the GFM extensions, one run
    per file (it would read several files as one document). CPU and wall
    clock apart; medians."""
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith(prefix))
    size = sum(os.path.getsize(f) for f in files) / 1e6
    pattern = "[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]"
    cases = [("check", [[binary, "check"] + files]), ("check 1 cpu", [["taskset", "-c", "0", binary, "check"] + files])]
    if before: cases.append(("before", [[before, "check"] + files]))
    cases += [("rg -j1", [["rg", "-j1", "-c", pattern] + files]),
              ("cmark-gfm", [["cmark-gfm", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist", f]
                             for f in files])]
    got = {label: [] for label, _ in cases}
    for r in range(rounds):
        for label, cmds in cases:
            cpu, wall = timed(cmds)
            got[label].append((cpu, wall))
            print("round %d %-12s %.1f MB: CPU %.2f s = %.1f MB/s, wall %.2f s = %.1f MB/s" % (
                r, label, size, cpu, size / cpu, wall, size / wall), flush=True)
    for label, _ in cases:
        cpu = sorted(x[0] for x in got[label])[len(got[label]) // 2]
        wall = sorted(x[1] for x in got[label])[len(got[label]) // 2]
        print("median %-12s CPU %.2f s = %.1f MB/s, wall %.2f s = %.1f MB/s" % (label, cpu, size / cpu, wall, size / wall))


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "make": make(sys.argv[2])
    elif what == "open": open_bench(sys.argv[2], sys.argv[3])
    elif what == "edit": edit_bench(sys.argv[2], sys.argv[3])
    elif what == "check": check_bench(sys.argv[2], sys.argv[3])
    elif what == "check-anchors": check_anchors_bench(sys.argv[2], sys.argv[3], *sys.argv[4:5])
    elif what == "make-real": make_real(sys.argv[2], sys.argv[3], *[float(x) for x in sys.argv[4:5]])
    elif what == "check-real": check_anchors_bench(sys.argv[2], sys.argv[3], *sys.argv[4:5], prefix="real-")
    elif what == "density": density(sys.argv[2], sys.argv[3:])
    else: sys.exit(__doc__)
