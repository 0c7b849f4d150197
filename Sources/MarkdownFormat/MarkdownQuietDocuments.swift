import Markdown

extension MarkdownFormat {
  /// False for a document with no character a bidi finding could come from
  /// (`BidiTextSearch`): its blocks raise none, and `check` does not read
  /// them.
  package func mayRaiseFindings(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    BidiTextSearch.firstBidiText(in: bytes) != nil
  }
}
