#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension TestClient {
  /// The path of a built executable of this package (default `bidi-lsp`).
  ///
  /// Looks, in order, at:
  /// 1. `$BIDI_LSP_PATH` (when `name` is `bidi-lsp`), to test another binary;
  /// 2. the directory of the running test executable (SwiftPM puts the
  ///    `.xctest` next to the products of the same configuration, e.g.
  ///    `.build/x86_64-unknown-linux-gnu/release/`);
  /// 3. `.build/release/` and `.build/debug/` of the package that contains
  ///    `filePath`, preferring the most recently built one.
  ///
  /// Returns nil if none exists.
  package static func builtProduct(_ name: String = "bidi-lsp", filePath: String = #filePath)
    -> String?
  {
    if name == "bidi-lsp", let override = getenv("BIDI_LSP_PATH") {
      let path = String(cString: override)
      if isExecutable(path) { return path }
    }
    if let executable = currentExecutablePath() {
      let candidate = directory(of: executable) + "/" + name
      if isExecutable(candidate) { return candidate }
    }
    var folder = directory(of: filePath)
    while folder.count > 1 {
      if access(folder + "/Package.swift", F_OK) == 0 {
        let candidates = ["release", "debug"].map { folder + "/.build/\($0)/" + name }
          .filter(isExecutable)
        return candidates.max { modificationTime($0) < modificationTime($1) }
      }
      folder = directory(of: folder)
    }
    return nil
  }

  private static func isExecutable(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
  }

  private static func modificationTime(_ path: String) -> Double {
    var info = stat()
    guard stat(path, &info) == 0 else { return 0 }
    return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
  }

  private static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `/proc/self/exe`, resolved.
  private static func currentExecutablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
