extension String {
  /// Whether each of the string's characters is one byte: ASCII without a carriage return.
  ///
  /// NB: in ASCII only "\r\n" joins two scalars into one character, so such a string can be
  /// counted and split by byte or scalar without walking its grapheme clusters, which costs
  /// more than the work on a line typed or a cell printed.
  var hasOneByteCharacters: Bool {
    // NB: read in place, not through `withUTF8`, which may copy (it mutates) and retains.
    utf8.withContiguousStorageIfAvailable(Self.areOneByteCharacters)
      ?? utf8.allSatisfy(Self.isOneByteCharacter)
  }

  /// Whether every byte is ASCII but "\r", eight bytes at a time (every cell of a listing
  /// asks).
  private static func areOneByteCharacters(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    let carriageReturns = ones &* UInt64(UInt8(ascii: "\r"))
    var index = 0
    while index + 8 <= bytes.count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      // NB: a byte of `word ^ carriageReturns` is zero where `word` has a "\r"; `(v - ones) &
      // ~v` sets the high bit of some byte exactly when `v` has a zero byte.
      let differences = word ^ carriageReturns
      let zeroBytes = (differences &- ones) & ~differences
      guard (word | zeroBytes) & highBits == 0 else { return false }
      index += 8
    }
    while index < bytes.count {
      guard isOneByteCharacter(base[index]) else { return false }
      index += 1
    }
    return true
  }

  private static func isOneByteCharacter(_ byte: UInt8) -> Bool {
    byte < 0x80 && byte != UInt8(ascii: "\r")
  }
}
