// The Markdown reader and inline renderer on arbitrary bytes, with the checks of
// Tests/MarkdownTests/MarkdownChecks.swift: no trap; blocks in order, every piece inside its
// line and in order; each rendered text's map never decreasing and inside its block, each
// rendered byte its source byte (or an escape's, entity's, NUL's, break's); atoms, markup and
// destinations inside the block; reading from each checkpoint equal to the full read. Input: one
// byte choosing front matter on or off, then the document. Seeds: Tests/MarkdownTests/Corpus and
// small hostile documents.
//
// fuzz-sources: Tests/MarkdownTests/MarkdownChecks.swift
// fuzz-options: -max_len=4096
import Markdown

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdown(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let options = MarkdownReader.Options(frontMatter: input.byte() & 1 == 0)
  let problems = MarkdownChecks.problems(input.rest(), options: options)
  if let first = problems.first { fuzzFailure("\(problems.count) problems, first: \(first)") }
  return 0
}
