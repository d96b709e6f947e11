extension String {
  /// Whether each of the string's characters is one byte: ASCII without a carriage return.
  ///
  /// NB: in ASCII only "\r\n" joins two scalars into one character, so such a string can be
  /// counted and split by byte or scalar without walking its grapheme clusters, which costs
  /// more than the work on a line typed or a cell printed.
  var hasOneByteCharacters: Bool {
    // NB: read in place, not through `withUTF8`, which may copy (it mutates) and retains.
    utf8.withContiguousStorageIfAvailable { $0.allSatisfy(Self.isOneByteCharacter) }
      ?? utf8.allSatisfy(Self.isOneByteCharacter)
  }

  private static func isOneByteCharacter(_ byte: UInt8) -> Bool {
    byte < 0x80 && byte != UInt8(ascii: "\r")
  }
}
