extension String {
  /// Whether each of the string's characters is one byte: ASCII without a carriage return.
  ///
  /// NB: in ASCII only "\r\n" joins two scalars into one character, so such a string can be
  /// counted and split by byte or scalar without walking its grapheme clusters, which costs
  /// more than the work on a line typed or a cell printed.
  var hasOneByteCharacters: Bool {
    var text = self
    return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") } }
  }
}
