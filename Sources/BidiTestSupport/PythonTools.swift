import Foundation

/// The Python that has the test-time tools from PyPI (the independent
/// readers, jsonschema, pre-commit…): the one virtual environment that
/// `scripts/install-deps.sh` fills, where `scripts/python-tools.sh` says
/// (`$BIDI_PYTHON_TOOLS`, else `~/.cache/bidi-lsp/python-tools`).
package enum PythonTools {
  /// The venv's folder.
  package static var environment: String {
    let env = ProcessInfo.processInfo.environment
    if let set = env["BIDI_PYTHON_TOOLS"], !set.isEmpty { return set }
    let cache = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (env["HOME"] ?? "/root") + "/.cache"
    return cache + "/bidi-lsp/python-tools"
  }

  /// The venv's `python`, nil when install-deps has not made it.
  package static var python: String? {
    let path = environment + "/bin/python"
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }
}
