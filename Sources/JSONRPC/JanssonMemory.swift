// jansson's allocator (`json_set_alloc_funcs`), installed before jansson
// allocates anything (`Jansson.swift` touches `JanssonMemory.installed` in
// every wrapper that creates a value).

import CJansson
import Synchronization

#if canImport(Glibc)
  import CMalloc
#endif

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
/// any other.
///
/// While a decode runs, the last large block freed is kept (one at most)
/// and reused for the next large one: as it is if it is large enough, else grown with `mremap`,
/// which moves its pages without copying or clearing them, so only the new
/// part is faulted in and zeroed. jansson's string buffer grows by copying
/// into a block twice the size and freeing the old one, so each block is
/// made from the one before the last, and the decoded text from the
/// half-size buffer: about a third less memory to clear for a long string.
/// The kept block is unmapped when the decode ends (the daemon's memory
/// after a message is what it was without the reuse), or replaced by a
/// larger one; `MemoryTrim.trim` gives it back too.
///
/// Every block has a header of 16 bytes in front of it (keeping jansson's
/// alignment): 0 for a `malloc` block, else the length of the mapping.
package enum JanssonMemory {
  /// Installs the allocator once; every jansson wrapper that can allocate
  /// reads this first, so no block ever reaches the other `free`.
  static let installed: Bool = {
    json_set_alloc_funcs(janssonAllocate, janssonFree)
    return true
  }()

  static let headerSize = 16
  /// The ordinary page in front of a mapped block, which holds its header.
  static let headerPageSize = 4096
  /// The size of a huge page on x86-64 and most arm64 kernels.
  package static let hugePageSize = 2 << 20
  /// Blocks of at least this many bytes are mapped.
  package static let mappedSize = hugePageSize

  /// Runs a decode: large blocks freed meanwhile are kept for reuse, and
  /// the one kept is unmapped when the last decode running ends.
  static func decoding<R>(_ body: () throws -> R) rethrows -> R {
    decodesRunning.add(1, ordering: .acquiringAndReleasing)
    defer {
      if decodesRunning.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { releaseSpare() }
    }
    return try body()
  }

  /// Unmaps the freed block kept for reuse, if any.
  static func releaseSpare() {
    if let block = takeSpare() { munmap(block.address, block.length) }
  }

  /// The length of the freed block kept for reuse, 0 if none.
  package static var spareLength: Int { spare.withLock { $0?.length ?? 0 } }

  /// True when `pointer` (a block jansson got from this allocator) was mapped.
  package static func isMapped(_ pointer: UnsafeRawPointer) -> Bool {
    (pointer - headerSize).load(as: Int.self) != 0
  }
}

private func janssonAllocate(_ size: Int) -> UnsafeMutableRawPointer? {
  guard size >= JanssonMemory.mappedSize else {
    guard let block = malloc(size + JanssonMemory.headerSize) else { return nil }
    block.storeBytes(of: 0, as: Int.self)
    return block + JanssonMemory.headerSize
  }
  return mapLarge(size)
}

private func janssonFree(_ pointer: UnsafeMutableRawPointer?) {
  guard let pointer else { return }
  let length = (pointer - JanssonMemory.headerSize).load(as: Int.self)
  if length == 0 {
    free(pointer - JanssonMemory.headerSize)
    return
  }
  let freed = MappedBlock(address: pointer - JanssonMemory.headerPageSize, length: length)
  // Outside a decode, nothing is kept.
  guard decodesRunning.load(ordering: .acquiring) > 0 else {
    munmap(freed.address, freed.length)
    return
  }
  // Keep the larger of this block and the one kept before; unmap the other.
  let unkept = spare.withLock { kept -> MappedBlock? in
    if let current = kept, current.length >= length { return freed }
    defer { kept = freed }
    return kept
  }
  if let unkept { munmap(unkept.address, unkept.length) }
}

/// A mapping made by `mapLarge`: its address (the header's page) and length.
private struct MappedBlock: @unchecked Sendable {
  var address: UnsafeMutableRawPointer
  var length: Int
}

/// The one freed large block kept for reuse.
private let spare = Mutex<MappedBlock?>(nil)

/// The decodes running (`JanssonMemory.decoding`).
private let decodesRunning = Atomic<Int>(0)

/// Takes the kept block out of `spare`. (Written out: `withLock { $0.take() }`
/// left the value in place with this toolchain.)
private func takeSpare() -> MappedBlock? {
  spare.withLock { kept -> MappedBlock? in
    let block = kept
    kept = nil
    return block
  }
}

/// A block of at least `size` bytes (a whole number of huge pages) that
/// starts on a huge-page boundary and is advised to use huge pages, mapped
/// behind one ordinary page whose last 16 bytes are its header (the whole
/// mapping's length), so that the huge pages hold exactly what jansson asks
/// for (its buffers are powers of two).
private func mapLarge(_ size: Int) -> UnsafeMutableRawPointer? {
  let huge = JanssonMemory.hugePageSize
  let page = JanssonMemory.headerPageSize
  let length = page + (size + huge - 1) & ~(huge - 1)
  var kept = takeSpare()
  if let block = kept, block.length >= length {
    // As it is, unless it would hold more than twice what is asked.
    if block.length <= 2 * length { return block.address + page }
    munmap(block.address, block.length)
    kept = nil
  }
  // A range of `length` bytes whose second page starts a huge page, reserved.
  let reserve = length + huge
  let flags = MAP_PRIVATE | MAP_ANONYMOUS
  let mapped = mmap(nil, reserve, kept == nil ? PROT_READ | PROT_WRITE : PROT_NONE, flags, -1, 0)
  guard let mapped, mapped != MAP_FAILED else {
    if let kept { munmap(kept.address, kept.length) }
    return nil
  }
  // Keep those `length` bytes; give back what is before and after.
  let address = Int(bitPattern: mapped)
  let head = ((address + page + huge - 1) & ~(huge - 1)) - page - address
  let block = mapped + head
  if head > 0 { munmap(mapped, head) }
  if reserve - head - length > 0 { munmap(block + length, reserve - head - length) }
  if let kept {
    // The kept block's pages moved onto the reserved range (which they
    // replace), grown to `length`; where that fails, a fresh mapping.
    #if canImport(Glibc)
      let grown = cmalloc_mremap_fixed(kept.address, kept.length, length, block) == block
    #else
      let grown = false
    #endif
    if !grown {
      munmap(kept.address, kept.length)
      guard mprotect(block, length, PROT_READ | PROT_WRITE) == 0 else {
        munmap(block, length)
        return nil
      }
    }
  }
  #if os(Linux)
    // MADV_HUGEPAGE; a refusal (no transparent huge pages) changes nothing.
    // The whole mapping, so that it stays one area that `mremap` can move
    // (the header's page alone is never a huge page).
    _ = madvise(block, length, 14)
  #endif
  (block + page - JanssonMemory.headerSize).storeBytes(of: length, as: Int.self)
  return block + page
}
