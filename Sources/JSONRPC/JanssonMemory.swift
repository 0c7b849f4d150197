// jansson's allocator (`json_set_alloc_funcs`), installed before jansson
// allocates anything (`Jansson.swift` touches `JanssonMemory.installed` in
// every wrapper that creates a value).

import CJansson

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where jansson's memory comes from: small blocks from `malloc`, large ones
/// (a long string being read, its decoded copy: a 25 MB `didOpen` makes
/// blocks of 2, 4, … 32 MiB and one of 25 MB) mapped on their own, aligned
/// to 2 MiB and marked for transparent huge pages (`MADV_HUGEPAGE`).
///
/// With 4 KiB pages, decoding a 25 MB text takes about 22,000 page faults
/// (jansson's string buffer doubles by copying, then the text is decoded
/// into a block of its own) — a tenth of the decode's time in the kernel.
/// With huge pages where the system allows them (Linux's
/// `transparent_hugepage` set to `always` or `madvise`) it takes a few
/// dozen; elsewhere, or when the advice is refused, the mapping works as
/// any other. A large block is unmapped when jansson frees it, so it never
/// stays behind in the allocator's free lists.
///
/// Every block starts with a header of 16 bytes (keeping jansson's
/// alignment): 0 for a `malloc` block, else the length of the mapping.
package enum JanssonMemory {
  /// Installs the allocator once; every jansson wrapper that can allocate
  /// reads this first, so no block ever reaches the other `free`.
  static let installed: Bool = {
    json_set_alloc_funcs(janssonAllocate, janssonFree)
    return true
  }()

  static let headerSize = 16
  /// The size of a huge page on x86-64 and most arm64 kernels.
  package static let hugePageSize = 2 << 20
  /// Blocks of at least this many bytes (header included) are mapped.
  package static let mappedSize = hugePageSize

  /// True when `pointer` (a block jansson got from this allocator) was mapped.
  package static func isMapped(_ pointer: UnsafeRawPointer) -> Bool {
    (pointer - headerSize).load(as: Int.self) != 0
  }
}

private func janssonAllocate(_ size: Int) -> UnsafeMutableRawPointer? {
  let total = size + JanssonMemory.headerSize
  guard total >= JanssonMemory.mappedSize else {
    guard let block = malloc(total) else { return nil }
    block.storeBytes(of: 0, as: Int.self)
    return block + JanssonMemory.headerSize
  }
  return mapLarge(total).map { $0 + JanssonMemory.headerSize }
}

private func janssonFree(_ pointer: UnsafeMutableRawPointer?) {
  guard let pointer else { return }
  let block = pointer - JanssonMemory.headerSize
  let length = block.load(as: Int.self)
  if length == 0 {
    free(block)
  } else {
    munmap(block, length)
  }
}

/// A mapping of at least `total` bytes (a whole number of huge pages),
/// starting on a huge-page boundary, advised to use huge pages, its length
/// stored in its first word.
private func mapLarge(_ total: Int) -> UnsafeMutableRawPointer? {
  let huge = JanssonMemory.hugePageSize
  let length = (total + huge - 1) & ~(huge - 1)
  let reserve = length + huge
  let mapped = mmap(nil, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
  guard let mapped, mapped != MAP_FAILED else { return nil }
  // Keep the aligned `length` bytes; give back what is before and after.
  let address = Int(bitPattern: mapped)
  let head = ((address + huge - 1) & ~(huge - 1)) - address
  let block = mapped + head
  if head > 0 { munmap(mapped, head) }
  if reserve - head - length > 0 { munmap(block + length, reserve - head - length) }
  #if os(Linux)
    // MADV_HUGEPAGE; a refusal (no transparent huge pages) changes nothing.
    _ = madvise(block, length, 14)
  #endif
  block.storeBytes(of: length, as: Int.self)
  return block
}
