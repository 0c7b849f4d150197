#!/usr/bin/env python3
"""Generates a localization tree of real shape for `check` benchmarks (issue 28).

    l10n-corpus.py OUT [--megabytes 100] [--seed 28]

OUT gets, in about the given size (each format about a quarter):
  po/LOCALE/app-N.po             gettext catalogs (msgid English, msgstr Arabic,
                                 Hebrew, Persian or Urdu; c-format and plural entries,
                                 a few fuzzy, a few untranslated)
  ios/LOCALE.lproj/Module-N.strings   Apple .strings, en.lproj the sources
  xliff/LOCALE/module-N.xliff    XLIFF 1.2 with <source> and <target>, <x id/> codes
  web/locales/LOCALE/ns-N.json   i18next JSON, locales/en the sources

Values are sentences built from word lists of each language with the
placeholders real projects use (%@, %d, %1$@, %s, {{name}}, <b>…</b>, <x id="1"/>)
and about 3% of translations with a mismatch of their source (a placeholder
dropped, two unnumbered placeholders swapped, a tag left open), so the
comparison does real work. Deterministic for a seed.
"""

import argparse
import os
import random

WORDS = {
    "en": "the file was saved your account payment message folder settings open close new delete share "
    "download upload search results today yesterday items people photos video music network update "
    "available please try again later cannot connect server password email address".split(),
    "ar": "تم حفظ الملف حسابك الدفع رسالة مجلد الإعدادات فتح إغلاق جديد حذف مشاركة تنزيل رفع بحث النتائج "
    "اليوم أمس عناصر أشخاص صور فيديو موسيقى الشبكة تحديث متاح يرجى المحاولة مرة أخرى لاحقًا تعذر الاتصال "
    "بالخادم كلمة المرور البريد".split(),
    "he": "הקובץ נשמר החשבון שלך תשלום הודעה תיקייה הגדרות פתח סגור חדש מחק שתף הורד העלה חיפוש תוצאות "
    "היום אתמול פריטים אנשים תמונות וידאו מוזיקה רשת עדכון זמין נסה שוב מאוחר יותר לא ניתן להתחבר "
    "לשרת סיסמה דואר".split(),
    "fa": "فایل ذخیره شد حساب شما پرداخت پیام پوشه تنظیمات باز بستن جدید حذف اشتراک دانلود آپلود جستجو "
    "نتایج امروز دیروز موارد افراد عکس‌ها ویدیو موسیقی شبکه به‌روزرسانی موجود لطفا دوباره تلاش کنید".split(),
    "ur": "فائل محفوظ ہو گئی آپ کا اکاؤنٹ ادائیگی پیغام فولڈر ترتیبات کھولیں بند کریں نیا حذف شیئر ڈاؤن "
    "لوڈ اپ لوڈ تلاش نتائج آج کل اشیاء لوگ تصاویر ویڈیو موسیقی نیٹ ورک اپ ڈیٹ دستیاب".split(),
}
TARGETS = ["ar", "he", "fa", "ur"]
# About a quarter of a program's messages are c-format with placeholders (GNOME
# and KDE catalogs), a few hold markup; every eleventh entry is a plural one.
PO_MIX = ["c"] * 5 + ["none"] * 14 + ["markup"]


def sentence(rng, lang, low=3, high=12):
    return " ".join(rng.choice(WORDS[lang]) for _ in range(rng.randint(low, high)))


def shape(rng, kind):
    """A source/translation pair of placeholder layouts: (source, target, holes)."""
    return {
        "printf": (["%@", "%d"], ["%d", "%@"]),
        "numbered": (["%1$@", "%2$d"], ["%2$d", "%1$@"]),
        "one": (["%@"], ["%@"]),
        "c": (["%s", "%d"], ["%s", "%d"]),
        "braces": (["{{name}}", "{{count}}"], ["{{count}}", "{{name}}"]),
        "markup": (["<b>", "</b>"], ["<b>", "</b>"]),
        "none": ([], []),
    }[kind]


def fill(rng, lang, holes):
    """A sentence with the holes in their order (rarely at the very start)."""
    words = sentence(rng, lang).split()
    positions = sorted(rng.randint(0 if rng.random() < 0.1 else 1, len(words)) for _ in holes)
    for offset, (position, hole) in enumerate(zip(positions, holes)):
        words.insert(position + offset, hole)
    return " ".join(words)


def pair(rng, lang, kinds):
    kind = rng.choice(kinds)
    source_holes, target_holes = shape(rng, kind)
    if kind == "printf":
        target_holes = list(source_holes)  # unnumbered: the order is kept...
    target_holes = list(target_holes)
    if target_holes and rng.random() < 0.03:  # ...except in a few mistakes
        mistake = rng.choice(["drop", "swap", "open"])
        if mistake == "drop":
            target_holes.pop()
        elif mistake == "swap" and len(target_holes) > 1:
            target_holes.reverse()
        elif kind == "markup":
            target_holes = target_holes[:1]
    source = fill(rng, "en", source_holes)
    target = fill(rng, lang, target_holes)
    if kind == "markup":  # keep tags in order around words
        source = "<b>" + sentence(rng, "en", 1, 3) + "</b> " + sentence(rng, "en")
        target = ("<b>" + sentence(rng, lang, 1, 3) + "</b> " if len(target_holes) == 2 else "<b>") + sentence(rng, lang)
    return source, target


def c_escape(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_po(rng, path, lang, budget):
    with open(path, "w", encoding="utf-8") as out:
        out.write('msgid ""\nmsgstr ""\n"Project-Id-Version: app 1.0\\n"\n"Language: %s\\n"\n' % lang)
        out.write('"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n')
        out.write('"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n"PO-Revision-Date: 2026-12-05 12:00+0000\\n"\n"Last-Translator: Bench <bench@example.org>\\n"\n"Language-Team: Bench <bench@example.org>\\n"\n\n')
        n = 0
        while out.tell() < budget:
            n += 1
            out.write("#: src/module%d.c:%d\n" % (n % 97, n))
            if n % 11 == 0:
                source, target = pair(rng, lang, ["c"])
                out.write('#, c-format\nmsgid "%s"\nmsgid_plural "%s"\n' % (c_escape(source), c_escape(source + " (n)")))
                out.write('msgstr[0] "%s"\nmsgstr[1] "%s"\n\n' % (c_escape(target), c_escape(target)))
                continue
            source, target = pair(rng, lang, PO_MIX)
            flags = "#, fuzzy, c-format\n" if n % 53 == 0 else "#, c-format\n" if "%" in source else ""
            if n % 41 == 0:
                target = ""
            # msgid unique per entry (gettext requires it).
            out.write('%smsgid "%s [%d]"\nmsgstr "%s"\n\n' % (flags, c_escape(source), n, c_escape(target)))


def strings_entries(rng, lang, count, seed):
    local = random.Random(seed)
    entries = []
    for n in range(count):
        source, target = pair(local, lang, ["printf", "numbered", "one", "none", "none", "markup"])
        entries.append(("key.%d" % n, source, target))
    return entries


def write_strings_pair(rng, folder, lang, index, budget):
    count = max(1, budget // 110)
    entries = strings_entries(rng, lang, count, rng.randrange(1 << 32))
    for locale, column in (("en", 1), (lang, 2)):
        path = os.path.join(folder, "%s.lproj" % locale, "Module-%d.strings" % index)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if locale == "en" and os.path.exists(path):
            continue
        with open(path, "w", encoding="utf-8") as out:
            for entry in entries:
                out.write('/* %s */\n"%s" = "%s";\n' % (entry[0], entry[0], c_escape(entry[column])))


def write_xliff(rng, path, lang, budget):
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write('<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n')
        out.write('  <file source-language="en" target-language="%s" datatype="plaintext" original="app">\n' % lang)
        out.write("    <body>\n")
        n = 0
        while out.tell() < budget:
            n += 1
            source, target = pair(rng, lang, ["printf", "numbered", "one", "none", "none"])
            source, target = xml_escape(source), xml_escape(target)
            if n % 7 == 0:
                source = 'Pay <x id="1"/> to <x id="2"/> ' + source
                target = 'ادفع <x id="2"/> إلى <x id="1"/> ' + target
            out.write('      <trans-unit id="u%d">\n        <source>%s</source>\n' % (n, source))
            out.write("        <target>%s</target>\n      </trans-unit>\n" % target)
        out.write("    </body>\n  </file>\n</xliff>\n")


def write_json_pair(rng, folder, lang, index, budget):
    count = max(1, budget // 100)
    local = random.Random(rng.randrange(1 << 32))
    entries = []
    for n in range(count):
        source, target = pair(local, lang, ["braces", "none", "none", "markup"])
        entries.append(("k%d" % n, source, target))
    for locale, column in (("en", 1), (lang, 2)):
        path = os.path.join(folder, locale, "ns-%d.json" % index)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if locale == "en" and os.path.exists(path):
            continue
        with open(path, "w", encoding="utf-8") as out:
            out.write("{\n")
            out.write(",\n".join('  "%s": "%s"' % (e[0], c_escape(e[column])) for e in entries))
            out.write("\n}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--megabytes", type=float, default=100)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    total = int(args.megabytes * 1_000_000)
    quarter = total // 4
    per_file = 2_000_000
    files = max(1, quarter // per_file)
    for index in range(files):
        lang = TARGETS[index % len(TARGETS)]
        os.makedirs(os.path.join(args.out, "po", lang), exist_ok=True)
        write_po(rng, os.path.join(args.out, "po", lang, "app-%d.po" % index), lang, per_file)
        # .strings and JSON: the translation is about half of the pair's bytes.
        write_strings_pair(rng, os.path.join(args.out, "ios"), lang, index, per_file * 55 // 100)
        os.makedirs(os.path.join(args.out, "xliff", lang), exist_ok=True)
        write_xliff(rng, os.path.join(args.out, "xliff", lang, "module-%d.xliff" % index), lang, per_file)
        write_json_pair(rng, os.path.join(args.out, "web", "locales"), lang, index, per_file * 55 // 100)
    size = 0
    for root, _, names in os.walk(args.out):
        size += sum(os.path.getsize(os.path.join(root, name)) for name in names)
    print("%s: %.1f MB" % (args.out, size / 1e6))


if __name__ == "__main__":
    main()
