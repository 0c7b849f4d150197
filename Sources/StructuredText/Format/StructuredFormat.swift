import UnicodeBidi

/// A format of structured documents: documents whose paragraphs are not
/// their lines (localization files, Markdown, subtitles). A format module
/// implements this; everything else — the incremental index, the
/// directions as written and filled, every `bidi/insertMarks` mode, the
/// findings, the daemon's requests and `check` — is built once on it
/// (Documentation/Architecture.md, "Structured documents").
///
/// What a format supplies:
/// - a resumable reader (`read`) that turns lines into `ReadItem`s: entries
///   (each a `TextEntry`: decoded/rendered text, its `SourceMap` back to the
///   source, atoms, markup, paragraphs, key/variant/block/cue), the locale
///   the contents name, facts, plain regions, and the first syntax error
///   (`sink.fail`); it records a boundary (`sink.boundary`) at each line
///   start from which reading can resume with the `ReaderState` alone;
/// - its own direction rules (`paragraphRules`), run on each paragraph by
///   the findings engine beside the hazard rules;
/// - how marks are written (`spelling`), its name in messages, and which
///   members its entries carry.
package protocol StructuredFormat: Sendable {
  /// A short name for logs (`strings`, `markdown`).
  var name: String { get }
  /// The format's name in messages: "an Apple .strings file".
  var displayName: String { get }
  /// What an entry is called in messages: "value", "block", "cue line".
  var entryNoun: String { get }
  /// Whether answers carry each entry's `key` (and `variant`): localization
  /// entries have keys, Markdown blocks and cue lines do not.
  var entriesHaveKeys: Bool { get }
  /// The code of the finding of a syntax error (`bidi.localizationSyntax`,
  /// `bidi.subtitleSyntax`).
  var syntaxCode: RuleCode { get }
  /// Where a control left open at the end of an entry's paragraph goes on
  /// to act, for `bidi.unpaired`'s message ("into the text the application
  /// puts after it"); nil says nothing more.
  var unpairedLeak: String? { get }
  /// Whether an index must read the whole document at once: facts found
  /// after entries decide them (ARB metadata types placeholders before it).
  var readsWhole: Bool { get }
  /// The rules of the format run on each paragraph of each entry, in order
  /// (`bidi.placeholderDirection`, `bidi.valueDirection`,
  /// `bidi.blockDirection`, `bidi.cueDirection`).
  var paragraphRules: [ParagraphRule] { get }

  /// How the format's files name their locale in their path
  /// (`.localization`; subtitles: `.subtitles`).
  var pathNaming: PathNaming { get }
  /// The message of `bidi.inIdentifier` for `control` written in the
  /// identifier of `entry` (its key; a Markdown link's destination).
  func identifierControlMessage(_ control: BidiControl, in entry: TextEntry) -> String

  /// Reads from `cursor` in `state` until the document ends, a syntax error
  /// (`sink.fail`, then return), or `sink.boundary` says stop.
  func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink)

  /// The entries as the document's facts make them (the facts of the whole
  /// document read so far, in order). The default changes nothing.
  func applyFacts(_ facts: [DocumentFact], to entries: inout [TextEntry])

  /// How the marks a plan inserts are written, given how the document's
  /// entries write bidi controls. The default: the most frequent escape,
  /// else the character itself.
  func spelling(_ votes: SpellingVotes) -> MarkSpelling

  /// The placeholders and markup of an entry, normalized as a translation
  /// is compared with its source (`SourceComparison`). The default: each
  /// atom and markup span as written, every atom named.
  func sourceTokens(of entry: TextEntry) -> SourceTokens

  /// What pairs an entry with its source in another file of the source
  /// locale (`SourceCatalog`): its context, key and variant.
  func pairingKey(of entry: TextEntry) -> String

  /// The facts from line `line` (a boundary) to the end, found without
  /// reading entries (a Markdown document's link reference definitions,
  /// by its block reader alone), for a lazily read index whose entries look
  /// up a key it has not read; nil when the format cannot tell them so (the
  /// index reads through then). The default: nil.
  func facts(_ lines: any DocumentLines, from line: Int) -> [DocumentFact]?

  /// Whether a document of these bytes may raise a finding: false only when
  /// it certainly raises none, so that `check` need not read it (a Markdown
  /// file with no right-to-left letter, bidi control or ill-formed UTF-8,
  /// spelled or by a character reference). The default: true.
  func mayRaiseFindings(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool
}

extension StructuredFormat {
  package var entryNoun: String { "entry" }
  package var entriesHaveKeys: Bool { false }
  package var readsWhole: Bool { false }
  package var unpairedLeak: String? { nil }
  package var paragraphRules: [ParagraphRule] { [] }
  package var pathNaming: PathNaming { .localization }

  package func applyFacts(_ facts: [DocumentFact], to entries: inout [TextEntry]) {}

  package func mayRaiseFindings(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { true }

  package func identifierControlMessage(_ control: BidiControl, in entry: TextEntry) -> String {
    "\(control.displayName) in the key \u{201C}\(entry.key)\u{201D}: the key looks like one without it but is a different key"
  }

  package func facts(_ lines: any DocumentLines, from line: Int) -> [DocumentFact]? { nil }

  package func spelling(_ votes: SpellingVotes) -> MarkSpelling { votes.mostFrequentEscape ?? .literal }

  package func sourceTokens(of entry: TextEntry) -> SourceTokens {
    let utf8 = Array(entry.text.utf8)
    func spelled(_ range: Range<Int>) -> String { String(decoding: utf8[range], as: UTF8.self) }
    return SourceTokens(
      placeholders: entry.atoms.map { PlaceholderToken(spelled($0.range), isOrdered: false) },
      markup: entry.markup.map(spelled))
  }

  package func pairingKey(of entry: TextEntry) -> String {
    (entry.context ?? "") + "\u{4}" + entry.key + "\u{4}" + (entry.variant ?? "")
  }
}
