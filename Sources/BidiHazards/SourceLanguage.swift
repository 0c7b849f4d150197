/// A programming language whose comments, string literals and identifiers
/// the hazard scanner can tell apart.
package enum SourceLanguage: String, CaseIterable, Sendable, Hashable {
  case c
  case cpp
  case objectiveC = "objective-c"
  case objectiveCpp = "objective-cpp"
  case swift
  case rust
  case go
  case java
  case javascript
  case typescript
  case python
  case ruby
  case shell = "shellscript"

  /// The language for an LSP `languageId` (`"c"`, `"typescriptreact"`,
  /// `"shellscript"`, …), or nil if unknown.
  package init?(languageId: String) {
    switch languageId.lowercased() {
    case "c": self = .c
    case "cpp", "c++", "cuda-cpp": self = .cpp
    case "objective-c", "objc": self = .objectiveC
    case "objective-cpp", "objcpp": self = .objectiveCpp
    case "swift": self = .swift
    case "rust": self = .rust
    case "go": self = .go
    case "java": self = .java
    case "javascript", "javascriptreact", "js", "jsx": self = .javascript
    case "typescript", "typescriptreact", "ts", "tsx": self = .typescript
    case "python", "py": self = .python
    case "ruby": self = .ruby
    case "shellscript", "shell", "sh", "bash", "zsh", "ksh": self = .shell
    default: return nil
    }
  }

  /// The language for a file name extension without the dot (`"rs"`), or nil.
  package init?(fileExtension: String) {
    switch fileExtension.lowercased() {
    case "c", "h": self = .c
    case "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "tpp", "inl", "cu": self = .cpp
    case "m": self = .objectiveC
    case "mm": self = .objectiveCpp
    case "swift": self = .swift
    case "rs": self = .rust
    case "go": self = .go
    case "java": self = .java
    case "js", "mjs", "cjs", "jsx": self = .javascript
    case "ts", "mts", "cts", "tsx": self = .typescript
    case "py", "pyi", "pyw": self = .python
    case "rb", "rake", "gemspec", "ru": self = .ruby
    case "sh", "bash", "zsh", "ksh", "bats": self = .shell
    default: return nil
    }
  }

  /// The language for a file path, from its extension or a few well-known
  /// file names (`Rakefile`, `Gemfile`, `.bashrc`), or nil.
  package init?(path: String) {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    switch name {
    case "Rakefile", "Gemfile", "Guardfile", "Podfile", "Vagrantfile", "Brewfile":
      self = .ruby
      return
    case ".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile", "PKGBUILD":
      self = .shell
      return
    default: break
    }
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    self.init(fileExtension: String(name[name.index(after: dot)...]))
  }

  /// The language named by a `#!` line (`#!/usr/bin/env python3`), or nil.
  package init?(shebang line: [UInt8]) {
    self.init(shebang: line[...])
  }

  /// The language named by a `#!` line, or nil. (Not generic: `check`
  /// calls it once a file from another module, where a generic one ran
  /// unspecialized, 0.12 M instructions of type lookups.)
  package init?(shebang line: ArraySlice<UInt8>) {
    guard line.count > 2, line[line.startIndex] == 0x23, line[line.startIndex + 1] == 0x21 else { return nil }
    let bytes = Array(line.prefix(256))
    let words = bytes.dropFirst(2).split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
    guard var program = words.first.map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
    if let slash = program.lastIndex(of: "/") { program = String(program[program.index(after: slash)...]) }
    if program == "env", words.count > 1 {
      // Skip `env` options such as `-S`.
      guard let word = words.dropFirst().first(where: { $0.first != 0x2D }) else { return nil }
      program = String(decoding: word, as: UTF8.self)
    }
    let base = String(program.prefix(while: { !$0.isNumber && $0 != "." }))
    switch base {
    case "sh", "bash", "zsh", "ksh", "dash", "ash", "mksh": self = .shell
    case "python", "pypy": self = .python
    case "ruby": self = .ruby
    case "node", "nodejs", "deno", "bun": self = .javascript
    default: return nil
    }
  }
}
