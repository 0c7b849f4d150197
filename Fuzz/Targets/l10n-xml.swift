// The localization readers of the XML formats: Apple .stringsdict, XLIFF 1.2/2.0, .NET .resx, Android
// strings.xml, on arbitrary bytes, with the checks of Fuzz/Localization/LocalizationFuzz.swift (no
// trap, value ranges inside the input and in order, decoded text consistent, edits only inside values,
// an incremental edit equal to a fresh read). Input: a byte choosing the format, 16 bytes choosing the
// edits, then the file. Seeds: the files of Tests/LocalizationTests/Corpus in these formats.
//
// fuzz-sources: Fuzz/Localization/LocalizationFuzz.swift
// fuzz-options: -max_len=4096
import Localization

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLocalizationXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzLocalization(data, size, formats: [.stringsdict, .xliff, .resx, .android, .qtLinguist])
  return 0
}
