// The Markdown reader and inline renderer on arbitrary bytes, with the checks of
// Tests/MarkdownTests/MarkdownChecks.swift: no trap; blocks in order, every piece inside its
// line and in order; each rendered text's map never decreasing and inside its block, each
// rendered byte its source byte (or an escape's, entity's, NUL's, break's); atoms, markup and
// destinations inside the block; reading from each checkpoint equal to the full read. Input: one
// byte choosing front matter on or off, then the document. Seeds: Tests/MarkdownTests/Corpus and
// small hostile documents. Then the document through `MarkdownFormat`, as the daemon and `check`
// read it (Fuzz/Formats/StructuredFormatChecks.swift).
//
// fuzz-sources: Tests/MarkdownTests/MarkdownChecks.swift Fuzz/Formats/StructuredFormatChecks.swift
// fuzz-options: -max_len=4096
import Markdown
import MarkdownFormat

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdown(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let options = MarkdownReader.Options(frontMatter: input.byte() & 1 == 0)
  let bytes = input.rest()
  let problems = MarkdownChecks.problems(bytes, options: options)
  if let first = problems.first { fuzzFailure("\(problems.count) problems, first: \(first)") }
  checkStructuredFormat(bytes, format: MarkdownFormat())
  return 0
}
