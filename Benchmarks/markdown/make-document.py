"""Writes the Markdown benchmark document: 100,000 blocks (headings, list
items with links, quotes with emphasis and code spans, paragraphs, 3-row
tables), ten words each, 60% Arabic, seeded. Usage: make-document.py OUT.md"""
import random, sys
random.seed(1)
ar = ["مرحبا", "العالم", "الحزمة", "متاح", "الآن", "في", "جميع", "المتاجر", "يثبّت", "الأدوات"]
en = ["Apple", "Pay", "npm", "install", "React", "library", "the", "build", "check", "file"]
out = []
for i in range(100000):
    k = i % 5
    words = " ".join(random.choice(ar if random.random() < 0.6 else en) for _ in range(10))
    if k == 0: out.append("# " + words)
    elif k == 1: out.append("- [link](https://example.com/%d) " % i + words)
    elif k == 2: out.append("> **bold** `code` " + words)
    elif k == 3: out.append(words + " *em* " + words)
    else: out.append("| " + words + " | cell |\n| --- | --- |\n| a | b |")
    out.append("")
open(sys.argv[1], "w").write("\n".join(out))
