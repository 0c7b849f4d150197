// The localization readers of the JSON formats: Apple String Catalogs (.xcstrings), Flutter .arb,
// i18next/ICU JSON, WebExtension messages.json, on arbitrary bytes, with the checks of Fuzz/Localization/LocalizationFuzz.swift
// (no trap, value ranges inside the input and in order, decoded text consistent, edits only inside
// values, an incremental edit equal to a fresh read). Input: a byte choosing the format, 16 bytes
// choosing the edits, then the file. Seeds: the files of Tests/LocalizationTests/Corpus in these
// formats.
//
// fuzz-sources: Fuzz/Localization/LocalizationFuzz.swift
// fuzz-options: -max_len=4096
import Localization

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLocalizationJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzLocalization(data, size, formats: [.xcstrings, .arb, .i18next, .webExtension])
  return 0
}
