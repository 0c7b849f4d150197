/// The usage text of `bidi-lsp check`.
package let checkUsage = """
  usage: bidi-lsp check [--format text|json|sarif] [--language ID] [--locale TAG]
                        [--source-locale TAG | --no-source] [--jobs N]
                        [--] FILE|DIR|- ...

  Reports bidi hazards (Trojan Source, CVE-2021-42574) as
  path:line:column: severity: message [code]
  with 1-based lines and 1-based columns counted in UTF-8 bytes; --format
  json writes one JSON document, --format sarif one SARIF 2.1.0 log (columns
  in code points, quick fixes as SARIF fixes) for code scanning.
  Directories are walked (version-control folders skipped); binary files
  (a NUL byte in the first 8 KiB) are skipped, but a file that starts with
  a UTF-16 byte order mark is decoded and checked (lines and columns of its
  UTF-8 conversion); '-' reads standard input.
  The language of each file comes from its name or #! line, or --language
  (an LSP languageId, or 'plaintext' for whole-line rules only).

  Localization files (.strings, .stringsdict, .xcstrings, .po, .pot, .xliff,
  .xlf, .arb, .properties, .resx, a .json named by or under a locale folder,
  an .xml under values or values-*; or --language strings, po, arb...) are
  read value by value, UTF-16 decoded by its byte order mark: each value is
  checked for bidi.placeholderDirection, bidi.valueDirection and the hazards
  above, a file that stops being its format gets bidi.localizationSyntax
  (the values before it are still checked), and the rest of the file gets
  the whole-line rules. The locale comes from the path (ar.lproj,
  values-iw, locales/he) or the contents, or --locale TAG for every file.
  A translation is compared with its source (bidi.placeholderMismatch): the
  one its file holds (.po msgid, XLIFF/.ts <source>, .xcstrings), else the
  file of --source-locale TAG (default en) beside it (en.lproj, values/,
  en.json, en.yml, intl_en.arb, en/x.ftl); --no-source: the file's own only.

  Markdown (.md, .markdown) is read block by block as GitHub renders it:
  each block gets bidi.blockDirection and the hazards of its rendered text,
  code blocks the line rules of their language. Subtitles (.srt, .vtt) are
  read cue line by cue line: bidi.cueDirection, the hazards, and
  bidi.subtitleSyntax where a file stops being its format.

  --jobs N (-j N): scan plain text on N threads, in line-aligned parts
  (default: the processors online, at most 8); the output is the same for
  every N.

  Exit status: 0 no hazard, 1 hazards found, 2 usage or I/O error.

  """
