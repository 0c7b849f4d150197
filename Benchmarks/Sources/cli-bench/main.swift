// cli-bench: the `bidi-lsp visual` and `bidi-lsp check` command lines against
// the tools a user would reach for instead, on the same files in one run:
// `fribidi --nopad --nobreak FILE` and `cat FILE` for visual and
// `visual --shape` (fribidi shapes Arabic by default), `rg -j1`
// searching for the bidi controls for check (issue 11). Medians of the CPU
// time of whole processes; visual, fribidi and cat write to /dev/null, check
// and rg to a file (rg stops at its first match when its output is
// /dev/null, so it would not search the rest). See Benchmarks/README.md.

import BenchmarkSupport
import BidiCorpus
import Glibc

struct Options {
  var ours = "../.build/release/bidi-lsp"
  /// Another build (such as main's) measured beside `ours`.
  var before: String?
  var megabytes = 10
  var bigMegabytes = 100
  var repetitions = 5
  var directory = "/tmp/cli-bench"

  init?(_ arguments: [String]) {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--ours": ours = rest.popFirst() ?? ours
      case "--before": before = rest.popFirst()
      case "--size": megabytes = rest.popFirst().flatMap { Int($0) } ?? megabytes
      case "--big": bigMegabytes = rest.popFirst().flatMap { Int($0) } ?? bigMegabytes
      case "--reps": repetitions = rest.popFirst().flatMap { Int($0) } ?? repetitions
      case "--dir": directory = rest.popFirst() ?? directory
      case "--quick":
        megabytes = 2
        bigMegabytes = 10
        repetitions = 3
      default:
        print(
          """
          usage: cli-bench [--ours PATH] [--before PATH] [--size MB] [--big MB] [--reps N] [--dir DIR] [--quick]
            --ours PATH    the bidi-lsp to measure (default ../.build/release/bidi-lsp)
            --before PATH  another build (e.g. main's) measured in the same run
            --size MB      size of each generated corpus (default 10)
            --big MB       size of the pure-ASCII file (default 100; 0 to skip)
            --reps N       timed runs per command after a warm-up (default 5; median)
            --dir DIR      where the corpora are written (default /tmp/cli-bench)
          """)
        return nil
      }
    }
  }
}

guard let options = Options(Array(CommandLine.arguments.dropFirst())) else { exit(2) }
guard let fribidi = which("fribidi"), let rg = which("rg"), let cat = which("cat") else {
  print("cli-bench: needs fribidi (Debian libfribidi-bin), rg (ripgrep) and cat on the PATH")
  exit(2)
}
for binary in [options.ours] + (options.before.map { [$0] } ?? []) where access(binary, X_OK) != 0 {
  print("cli-bench: no bidi-lsp at \(binary); build it with `swift build -c release` in the repository root")
  exit(2)
}

// The corpora, written once.
mkdir(options.directory, 0o755)
var files: [(name: String, path: String, bytes: Int)] = []
func write(_ name: String, _ corpus: Corpus, in directory: String) -> (name: String, path: String, bytes: Int) {
  let path = "\(directory)/\(name).txt"
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  corpus.text.withUnsafeBytes { raw in
    var offset = 0
    while offset < raw.count {
      let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
      if written <= 0 { break }
      offset += written
    }
  }
  close(fd)
  return (name, path, corpus.text.count)
}
for kind in [Corpus.Kind.prose, .rtlCode, .asciiCode, .isolates] {
  let name = kind == .isolates ? "rtl-heavy" : kind.rawValue
  files.append(write(name, Corpus.generate(kind, bytes: options.megabytes * 1_000_000), in: options.directory))
}
if options.bigMegabytes > 0 {
  let big = Corpus.generate(.asciiCode, bytes: options.bigMegabytes * 1_000_000)
  files.append(write("ascii-\(options.bigMegabytes)MB", big, in: options.directory))
}

/// Where check and rg write their findings.
let found = "\(options.directory)/found.out"

// The bidi controls, as rg searches for them.
let controls = "[\\x{061C}\\x{200E}\\x{200F}\\x{202A}-\\x{202E}\\x{2066}-\\x{2069}]"

print("cli-bench: \(options.ours)" + (options.before.map { " (before: \($0))" } ?? ""))
print(
  "median of \(options.repetitions) runs after a warm-up; CPU time (user + system) of whole processes;"
    + " visual, fribidi and cat write to /dev/null, check and rg to \(found) (rg stops at its first match on /dev/null)"
)
print("MB/s = 10^6 bytes of input per CPU second")
print("")

struct Row {
  var name: String
  var megabytes: Double
  var times: [String: Double] = [:]
}
var rows: [Row] = []
for file in files {
  var row = Row(name: file.name, megabytes: Double(file.bytes) / 1e6)
  let repetitions = file.bytes > 50_000_000 ? max(3, options.repetitions / 2) : options.repetitions
  var commands = [
    Command(name: "visual", executable: options.ours, arguments: ["visual", file.path]),
    Command(name: "visual-shape", executable: options.ours, arguments: ["visual", "--shape", file.path]),
    Command(name: "check", executable: options.ours, arguments: ["check", file.path], output: found),
    // One thread, as `rg -j1` and as `check` was when issue 29 was filed.
    Command(
      name: "check-j1", executable: options.ours, arguments: ["check", "--jobs", "1", file.path], output: found),
    Command(name: "fribidi", executable: fribidi, arguments: ["--nopad", "--nobreak", file.path]),
    Command(name: "cat", executable: cat, arguments: [file.path]),
    Command(name: "rg", executable: rg, arguments: ["-j1", "--no-config", "-e", controls, file.path], output: found),
  ]
  if let before = options.before {
    commands.append(Command(name: "visual-before", executable: before, arguments: ["visual", file.path]))
    commands.append(
      Command(name: "check-before", executable: before, arguments: ["check", file.path], output: found))
  }
  for command in commands {
    // check exits 1 when it finds hazards, rg 1 when it finds nothing.
    guard let seconds = command.median(repetitions, statuses: [0, 1]) else {
      print("cli-bench: \(command.name) failed on \(file.name)")
      exit(1)
    }
    row.times[command.name] = seconds
  }
  rows.append(row)
  print("  measured \(file.name)")
}
print("")

func rate(_ row: Row, _ name: String) -> String {
  guard let seconds = row.times[name] else { return "" }
  return fixed(row.megabytes / seconds, 0)
}
func ratio(_ row: Row, _ numerator: String, _ denominator: String) -> String {
  guard let a = row.times[numerator], let b = row.times[denominator] else { return "" }
  return fixed(a / b, 2) + "x"
}

let hasBefore = options.before != nil
print("bidi-lsp visual FILE vs fribidi --nopad --nobreak FILE and cat FILE (MB/s; ratios of times)")
var visual = Table(
  ["file", "MB"] + (hasBefore ? ["before"] : []) + ["visual", "fribidi", "cat", "fribidi/visual", "visual/cat"]
    + (hasBefore ? ["before/visual"] : []))
for row in rows {
  visual.add(
    [row.name, fixed(row.megabytes, 1)] + (hasBefore ? [rate(row, "visual-before")] : [])
      + [
        rate(row, "visual"), rate(row, "fribidi"), rate(row, "cat"), ratio(row, "fribidi", "visual"),
        ratio(row, "visual", "cat"),
      ] + (hasBefore ? [ratio(row, "visual-before", "visual")] : []))
}
print(visual.render())
print("targets: fribidi/visual >= 4x on every file; visual/cat <= 2x on pure ASCII")
print("")
// fribidi shapes Arabic by default: the like-for-like comparison is
// `visual --shape` (a file or pipe is not shaped by default).
print("bidi-lsp visual --shape FILE vs fribidi --nopad --nobreak FILE (MB/s; ratios of times)")
var shaped = Table(["file", "MB", "visual", "visual --shape", "fribidi", "fribidi/shape", "shape/visual"])
for row in rows {
  shaped.add([
    row.name, fixed(row.megabytes, 1), rate(row, "visual"), rate(row, "visual-shape"), rate(row, "fribidi"),
    ratio(row, "fribidi", "visual-shape"), ratio(row, "visual-shape", "visual"),
  ])
}
print(shaped.render())
print("target: fribidi/shape >= 4x on every file")
print("")
print(
  "bidi-lsp check FILE (the processors online) and check --jobs 1 FILE vs rg -j1 searching FILE for the bidi"
    + " controls (MB/s; ratios of CPU times)")
var check = Table(
  ["file", "MB"] + (hasBefore ? ["before"] : []) + ["check", "check -j1", "rg", "check/rg", "check -j1/rg"]
    + (hasBefore ? ["before/check"] : []))
for row in rows {
  check.add(
    [row.name, fixed(row.megabytes, 1)] + (hasBefore ? [rate(row, "check-before")] : [])
      + [
        rate(row, "check"), rate(row, "check-j1"), rate(row, "rg"), ratio(row, "check", "rg"),
        ratio(row, "check-j1", "rg"),
      ]
      + (hasBefore ? [ratio(row, "check-before", "check")] : []))
}
print(check.render())
print("targets: check >= 1000 MB/s on clean ASCII; check/rg <= 3x; check -j1/rg <= 1.5x on rtl-heavy (issue 29)")
