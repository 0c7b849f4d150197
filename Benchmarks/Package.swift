// swift-tools-version:6.0
//
// Benchmarks for bidi-lsp, kept out of the product: the product links only
// jansson, while these executables also link ICU and GNU FriBidi to compare
// against. Modules:
//
//   CICU         system library: ICU's ubidi (Debian libicu-dev, pkg-config icu-uc)
//   CFriBidi     system library: GNU FriBidi (Debian libfribidi-dev)
//   BidiCorpus   deterministic, seeded corpora generated in code
//   bidi-bench   bidi throughput: ours vs ICU vs FriBidi

import PackageDescription

let package = Package(
  name: "bidi-lsp-benchmarks",
  dependencies: [
    .package(name: "bidi-lsp", path: "..")
  ],
  targets: [
    // MARK: CICU
    .systemLibrary(
      name: "CICU",
      pkgConfig: "icu-uc",
      providers: [.apt(["libicu-dev"])]
    ),

    // MARK: CFriBidi
    .systemLibrary(
      name: "CFriBidi",
      pkgConfig: "fribidi",
      providers: [.apt(["libfribidi-dev"])]
    ),

    // MARK: BidiCorpus
    .target(name: "BidiCorpus"),

    // MARK: bidi-bench
    .executableTarget(
      name: "bidi-bench",
      dependencies: [
        "BidiCorpus",
        "CFriBidi",
        "CICU",
        .product(name: "UnicodeBidi", package: "bidi-lsp"),
      ]
    ),
  ]
)
