import StructuredText
import UnicodeBidi

/// Which placeholder grammars apply to a value (Protocol/localization.md, "Placeholders,
/// per format").
struct PlaceholderRules: Hashable, Sendable {
  /// printf forms (`%@`, `%1$d`, `%.2f`, `%lld`), with `%#@name@`.
  var printf = false
  /// String Catalog `%arg` (inside a substitution's variations); numeric
  /// when the substitution's format specifier is.
  var catalogArgument: Bool?
  /// Python `%(name)s`.
  var pythonPercent = false
  /// Python `{name}` / `{0:.2f}`.
  var pythonBraces = false
  /// ICU MessageFormat (`{name}`, `{0, number}`, plural/select/selectordinal).
  var icu = false
  /// i18next `{{name}}`, `{{- name}}`, `{{name, number}}`, `$t(key)`.
  var i18next = false
  /// .NET composite formatting `{0}`, `{0:N2}`, `{0,-8}`.
  var dotnet = false
  /// Qt `%1`…`%99`, `%L1`, `%n`, `%Ln`.
  var qt = false
  /// WebExtension `$NAME$`, `$1`…`$9`.
  var webExtension = false
  /// `{{ name }}` alone (Symfony's validators), without i18next's `$t()`.
  var mustache = false
  /// Rails `%{name}`, `%<name>d` and Symfony `%name%`.
  var railsSymfony = false

  static let none = PlaceholderRules()

  /// The rules of a format (`.po` entries use `po(flags:)`).
  static func of(_ format: LocalizationFormat) -> PlaceholderRules {
    var rules = PlaceholderRules()
    switch format {
    case .strings, .stringsdict, .xcstrings, .android, .xliff, .po: rules.printf = true
    case .arb, .properties: rules.icu = true
    case .i18next:
      // Also printf: i18next's sprintf post-processor (`%s`, `%d`, `%1$s`)
      // is in wide use, and a `%s` read as text would make its `s` the
      // value's first strong character.
      rules.icu = true
      rules.i18next = true
      rules.printf = true
    case .resx: rules.dotnet = true
    case .fluent: break  // placeables are read with the syntax
    case .qtLinguist: rules.qt = true
    case .webExtension: rules.webExtension = true
    case .yaml:
      rules.railsSymfony = true
      rules.mustache = true
      rules.icu = true
    }
    return rules
  }

  /// The rules of a `.po` entry from its `#,` flags: printf unless flagged
  /// `no-c-format` or with another format flag, whose own forms then count
  /// (`python-format`, `python-brace-format`, `java-format` as
  /// MessageFormat); other format flags read printf forms.
  static func po(flags: [String]) -> PlaceholderRules {
    var rules = PlaceholderRules()
    var formats: [String] = []
    var noC = false
    for flag in flags {
      if flag == "no-c-format" {
        noC = true
      } else if flag.hasSuffix("-format") && !flag.hasPrefix("no-") {
        formats.append(flag)
      }
    }
    if formats.isEmpty {
      rules.printf = !noC
      return rules
    }
    for format in formats {
      switch format {
      case "python-format":
        rules.pythonPercent = true
        rules.printf = true
      case "python-brace-format": rules.pythonBraces = true
      case "java-format": rules.icu = true
      case "csharp-format": rules.dotnet = true
      default: rules.printf = true
      }
    }
    return rules
  }
}
