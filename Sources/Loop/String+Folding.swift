import Foundation

// NB: here, where every client's interface can use them (they all import Loop), as `package`:
// Persistence's `String.caseFolded` is the public name of ``foldedForSearch``.

extension String {
  /// The string in Unicode normalization form C, the form every string is stored and bound in.
  ///
  /// NB: the standard library's NFC, the one `String`'s own `==` and `<` compare, so that byte
  /// equality and byte order of stored text are Swift's by construction. Foundation's
  /// `precomposedStringWithCanonicalMapping` follows an older Unicode version (it leaves
  /// combining marks added since, such as U+1AD2, out of canonical order: two spellings Swift
  /// holds equal were stored apart) and takes quadratic time (25 seconds for a megabyte of
  /// decomposed "é").
  @inlinable
  package var normalizedForStorage: String {
    isASCII ? self : String(decoding: _nfcCodeUnits, as: UTF8.self)
  }

  /// Whether every byte is ASCII (already in every normalization form).
  @inlinable
  package var isASCII: Bool {
    let fast = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      var index = 0
      let raw = UnsafeRawBufferPointer(bytes)
      while index + 8 <= raw.count {
        if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
          return false
        }
        index += 8
      }
      while index < raw.count {
        if raw[index] >= 0x80 { return false }
        index += 1
      }
      return true
    }
    return fast ?? utf8.allSatisfy { $0 < 0x80 }
  }

  /// The string case-folded for case-insensitive search (Persistence's `caseFolded`): Unicode
  /// full case folding without a locale, then normalization form C; diacritics are kept.
  package var foldedForSearch: String {
    if isASCII { return lowercased() }
    return folding(options: [.caseInsensitive], locale: nil).normalizedForStorage
  }
}
