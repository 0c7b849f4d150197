// The localization readers of the line-based text formats: Apple .strings, gettext .po/.pot, Java
// .properties, Fluent .ftl, Rails/Symfony YAML, on arbitrary bytes, with the checks of Fuzz/Localization/LocalizationFuzz.swift (no
// trap, value ranges inside the input and in order, decoded text consistent, edits only inside values,
// an incremental edit equal to a fresh read). Input: a byte choosing the format, 16 bytes choosing the
// edits, then the file. Seeds: the files of Tests/LocalizationTests/Corpus in these formats (and
// UTF-16 copies of the .strings ones).
//
// fuzz-sources: Fuzz/Localization/LocalizationFuzz.swift
// fuzz-options: -max_len=4096
import Localization

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLocalizationText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzLocalization(data, size, formats: [.strings, .po, .properties, .fluent, .yaml])
  return 0
}
