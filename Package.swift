// swift-tools-version:6.0
//
// bidi-lsp: a language-server-style daemon for right-to-left and
// mixed-direction text.
//
// Layout rules for this manifest: one `// MARK:` section per module,
// followed by its test target; one dependency per line. Modules, from the
// bottom up:
//
//   CJansson            system library: libjansson (Debian libjansson-dev)
//   CMalloc             system header: glibc's malloc_trim
//   ByteWords           word-at-a-time byte arithmetic, the byte scans' one foundation
//   JSONRPC             JSON values over jansson, LSP framing, JSON-RPC 2.0
//   CUnicodeBidiData    generated Unicode 17.0 bidi property tables (C)
//   CByteScan           vectorised byte scans: plain text, the hazard scan's skip (C)
//   UnicodeBidi         the Unicode Bidirectional Algorithm (UAX #9)
//   CArabicShapingData  generated Unicode 17.0 Arabic joining tables (C)
//   ArabicShaping       Arabic joining and presentation forms for display lines
//   DocumentStore       document buffers, line index, incremental analysis
//   BidiMarks           planning LRM/RLM and isolate insertions (insertMarks)
//   BidiHazards         Trojan Source hazard detection (CVE-2021-42574)
//   StructuredText      documents whose paragraphs are not lines: readers' foundation,
//                       entries, the incremental index, analysis, planning, findings
//   Localization        the localization formats on StructuredText: readers, placeholders, rules
//   CHTMLEntities       generated HTML named character references (C), for Markdown and Subtitles
//   Markdown            CommonMark/GFM block reader and inline renderer (cmark-gfm 0.29)
//   MarkdownFormat      Markdown on StructuredText: rendered blocks as entries, blockDirection
//   DocumentFormats     the one place a document's kind is told from its languageId and path
//   Subtitles           SubRip and WebVTT readers: cue lines, decoded text, markup, locale
//   BidiCommands        the `check` and `visual` commands
//   BidiProtocol        typed params and results of every method, one codec
//   BidiServer          protocol handlers: lifecycle, documents, bidi requests
//   bidi-lsp            the executable
//   BidiTestSupport     test helpers: one client (in process or over pipes), one text model

import PackageDescription

/// How the release build of `bidi-lsp` is linked on Linux. A static
/// executable (Swift runtime, libstdc++, jansson and glibc inside it) starts
/// in half the time of one that loads libstdc++ and the C libraries: a
/// third of the run of `bidi-lsp visual` on 10 MB was the dynamic linker
/// (Benchmarks/README.md, "Round 7"). A sanitizer needs the C libraries
/// dynamic: `scripts/sanitize.sh` sets BIDI_LSP_LINK=dynamic-libc, which
/// keeps only the Swift runtime static.
let releaseLinking =
  Context.environment["BIDI_LSP_LINK"] == "dynamic-libc" ? "-static-stdlib" : "-static-executable"

let package = Package(
  name: "bidi-lsp",
  products: [
    .executable(name: "bidi-lsp", targets: ["bidi-lsp"]),
    .library(name: "UnicodeBidi", targets: ["UnicodeBidi"]),
    .library(name: "ArabicShaping", targets: ["ArabicShaping"]),
  ],
  targets: [
    // MARK: CJansson
    .systemLibrary(
      name: "CJansson",
      pkgConfig: "jansson",
      providers: [.apt(["libjansson-dev"])]
    ),

    // MARK: CMalloc
    .systemLibrary(name: "CMalloc"),

    // MARK: ByteWords
    .target(name: "ByteWords"),
    .testTarget(
      name: "ByteWordsTests",
      dependencies: [
        "ByteWords"
      ]
    ),

    // MARK: JSONRPC
    .target(
      name: "JSONRPC",
      dependencies: [
        "ByteWords",
        "CJansson",
        "CMalloc",
      ]
    ),
    .testTarget(
      name: "JSONRPCTests",
      dependencies: [
        "BidiTestSupport",
        "JSONRPC",
      ]
    ),

    // MARK: CUnicodeBidiData
    .target(name: "CUnicodeBidiData"),

    // MARK: CByteScan
    .target(name: "CByteScan"),

    // MARK: UnicodeBidi
    .target(
      name: "UnicodeBidi",
      dependencies: [
        "ByteWords",
        "CByteScan",
        "CUnicodeBidiData",
      ]
    ),
    .testTarget(
      name: "UnicodeBidiTests",
      dependencies: [
        "BidiTestSupport",
        "CByteScan",
        "UnicodeBidi",
      ]
    ),

    // MARK: CArabicShapingData
    .target(name: "CArabicShapingData"),

    // MARK: ArabicShaping
    .target(
      name: "ArabicShaping",
      dependencies: [
        "CArabicShapingData",
        "UnicodeBidi",
      ]
    ),
    .testTarget(
      name: "ArabicShapingTests",
      dependencies: [
        "ArabicShaping",
        "BidiTestSupport",
        "UnicodeBidi",
      ]
    ),

    // MARK: DocumentStore
    .target(
      name: "DocumentStore",
      dependencies: [
        "CByteScan",
        "UnicodeBidi",
      ]
    ),
    .testTarget(
      name: "DocumentStoreTests",
      dependencies: [
        "BidiTestSupport",
        "DocumentStore",
        "UnicodeBidi",
      ]
    ),

    // MARK: BidiHazards
    .target(
      name: "BidiHazards",
      dependencies: [
        "DocumentStore",
        "UnicodeBidi",
      ]
    ),
    .testTarget(
      name: "BidiHazardsTests",
      dependencies: [
        "BidiCommands",
        "BidiTestSupport",
        "BidiHazards",
        "DocumentStore",
        "UnicodeBidi",
      ],
      exclude: [
        "Corpus",
        "CorpusSource",
      ]
    ),

    // MARK: BidiMarks
    .target(
      name: "BidiMarks",
      dependencies: [
        "UnicodeBidi"
      ]
    ),
    .testTarget(
      name: "BidiMarksTests",
      dependencies: [
        "BidiHazards",
        "BidiTestSupport",
        "BidiMarks",
        "UnicodeBidi",
      ]
    ),

    // MARK: StructuredText
    .target(
      name: "StructuredText",
      dependencies: [
        "BidiHazards",
        "BidiMarks",
        "UnicodeBidi",
      ]
    ),
    .testTarget(
      name: "StructuredTextTests",
      dependencies: [
        "BidiHazards",
        "BidiTestSupport",
        "StructuredText",
        "UnicodeBidi",
      ]
    ),

    // MARK: BidiCommands
    .target(
      name: "BidiCommands",
      dependencies: [
        "ArabicShaping",
        "BidiHazards",
        "ByteWords",
        "CByteScan",
        "DocumentFormats",
        "JSONRPC",
        "Localization",
        "StructuredText",
        "UnicodeBidi",
      ]
    ),

    // MARK: Localization
    .target(
      name: "Localization",
      dependencies: [
        "BidiMarks",
        "StructuredText",
        "UnicodeBidi",
      ]
    ),
    .testTarget(
      name: "LocalizationTests",
      dependencies: [
        "BidiHazards",
        "BidiMarks",
        "BidiTestSupport",
        "Localization",
        "StructuredText",
        "UnicodeBidi",
      ],
      exclude: [
        "Corpus"
      ]
    ),

    // MARK: CHTMLEntities
    .target(name: "CHTMLEntities"),

    // MARK: Markdown
    .target(
      name: "Markdown",
      dependencies: [
        "CHTMLEntities",
        "UnicodeBidi",
      ]
    ),
    .target(
      name: "MarkdownFormat",
      dependencies: [
        "Markdown",
        "StructuredText",
        "UnicodeBidi",
      ]
    ),
    .testTarget(
      name: "MarkdownTests",
      dependencies: [
        "BidiTestSupport",
        "Markdown",
        "MarkdownFormat",
        "StructuredText",
      ],
      exclude: [
        "Corpus",
        "Roundtrip",
      ]
    ),

    // MARK: Subtitles
    .target(
      name: "Subtitles",
      dependencies: [
        "CHTMLEntities",
        "StructuredText",
        "UnicodeBidi",
      ]
    ),
    .testTarget(
      name: "SubtitlesTests",
      dependencies: [
        "BidiTestSupport",
        "Localization",
        "StructuredText",
        "Subtitles",
        "UnicodeBidi",
      ],
      exclude: [
        "Corpus"
      ]
    ),

    // MARK: DocumentFormats
    .target(
      name: "DocumentFormats",
      dependencies: [
        "Localization",
        "MarkdownFormat",
        "StructuredText",
        "Subtitles",
      ]
    ),

    // MARK: BidiProtocol
    .target(
      name: "BidiProtocol",
      dependencies: [
        "BidiMarks",
        "JSONRPC",
        "UnicodeBidi",
      ]
    ),

    // MARK: BidiServer
    .target(
      name: "BidiServer",
      dependencies: [
        "ArabicShaping",
        "BidiHazards",
        "BidiMarks",
        "BidiProtocol",
        "DocumentFormats",
        "DocumentStore",
        "JSONRPC",
        "Localization",
        "StructuredText",
        "UnicodeBidi",
      ]
    ),

    .testTarget(
      name: "BidiServerTests",
      dependencies: [
        "BidiProtocol",
        "BidiServer",
        "DocumentStore",
        "BidiTestSupport",
        "JSONRPC",
        "UnicodeBidi",
      ]
    ),

    // MARK: bidi-lsp
    .executableTarget(
      name: "bidi-lsp",
      dependencies: [
        "BidiCommands",
        "BidiHazards",
        "BidiServer",
        "JSONRPC",
        "UnicodeBidi",
      ],
      // A command such as `bidi-lsp check` in a hook starts in a millisecond
      // (see `releaseLinking`).
      linkerSettings: [.unsafeFlags([releaseLinking], .when(platforms: [.linux], configuration: .release))]
    ),

    // MARK: BidiTestSupport
    .target(
      name: "BidiTestSupport",
      dependencies: [
        "JSONRPC",
        "UnicodeBidi",
      ]
    ),

    // MARK: IntegrationTests
    .testTarget(
      name: "IntegrationTests",
      dependencies: [
        "BidiTestSupport",
        "JSONRPC",
      ],
      exclude: [
        "Shaping"
      ]
    ),
  ]
)
