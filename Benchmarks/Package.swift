// swift-tools-version:6.0
//
// Benchmarks for bidi-lsp, kept out of the product: the product links only
// jansson, while these executables also link ICU and GNU FriBidi to compare
// against. Modules:
//
//   CICU              system library: ICU's ubidi (Debian libicu-dev, pkg-config icu-uc)
//   CFriBidi          system library: GNU FriBidi (Debian libfribidi-dev)
//   BenchJansson      system library: jansson, for the decode-time floor of lsp-bench
//   BidiCorpus        deterministic, seeded corpora generated in code
//   BenchmarkSupport  clock, statistics, plain-text tables
//   bidi-bench        bidi throughput: ours vs ICU vs FriBidi
//   lsp-bench         the real daemon over stdio on large documents
//   cli-bench         bidi-lsp visual/check vs fribidi, cat and rg on the same files
//   shape-compare     bidi-lsp visual --shape vs ICU's u_shapeArabic on the same reordered lines

import PackageDescription

let package = Package(
  name: "bidi-lsp-benchmarks",
  dependencies: [
    .package(name: "bidi-lsp", path: "..")
  ],
  targets: [
    // MARK: BenchJansson
    .systemLibrary(
      name: "BenchJansson",
      pkgConfig: "jansson",
      providers: [.apt(["libjansson-dev"])]
    ),

    // MARK: BenchmarkSupport
    .target(name: "BenchmarkSupport"),

    // MARK: BidiCorpus
    .target(name: "BidiCorpus"),

    // MARK: CFriBidi
    .systemLibrary(
      name: "CFriBidi",
      pkgConfig: "fribidi",
      providers: [.apt(["libfribidi-dev"])]
    ),

    // MARK: CICU
    .systemLibrary(
      name: "CICU",
      pkgConfig: "icu-uc",
      providers: [.apt(["libicu-dev"])]
    ),

    // MARK: bidi-bench
    .executableTarget(
      name: "bidi-bench",
      dependencies: [
        "BenchmarkSupport",
        "BidiCorpus",
        "CFriBidi",
        "CICU",
        .product(name: "UnicodeBidi", package: "bidi-lsp"),
      ]
    ),

    // MARK: cli-bench
    .executableTarget(
      name: "cli-bench",
      dependencies: [
        "BenchmarkSupport",
        "BidiCorpus",
      ]
    ),

    // MARK: shape-compare
    .executableTarget(
      name: "shape-compare",
      dependencies: [
        "BidiCorpus",
        "CICU",
      ]
    ),

    // MARK: lsp-bench
    .executableTarget(
      name: "lsp-bench",
      dependencies: [
        "BenchJansson",
        "BenchmarkSupport",
        "BidiCorpus",
      ]
    ),
  ]
)
