import Testing

@testable import LoopCLI

/// Whether a string's characters are each one byte: ASCII without "\r", wherever in the
/// string (the check reads eight bytes at a time, then the rest one by one).
@Suite struct OneByteCharactersTests {
  private static let lengths = Array(0...40)

  @Test(arguments: lengths)
  func asciiWithoutCarriageReturnsIsOneByteCharacters(_ length: Int) {
    let text = String((0..<length).map { Character(UnicodeScalar(UInt8(0x20 + $0 % 0x5F))) })
    #expect(text.hasOneByteCharacters)
    #expect(String(repeating: "\n\t", count: length).hasOneByteCharacters)
  }

  @Test(arguments: lengths.dropFirst())
  func aCarriageReturnAnywhereIsNot(_ length: Int) {
    for position in 0..<length {
      var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
      bytes[position] = UInt8(ascii: "\r")
      #expect(!String(decoding: bytes, as: UTF8.self).hasOneByteCharacters, "at \(position)")
    }
  }

  @Test(arguments: lengths.dropFirst())
  func aNonASCIICharacterAnywhereIsNot(_ length: Int) {
    for position in 0..<length {
      var text = String(repeating: "b", count: length)
      text.replaceSubrange(
        text.index(
          text.startIndex, offsetBy: position)...text.index(
            text.startIndex, offsetBy: position),
        with: "é")
      #expect(!text.hasOneByteCharacters, "at \(position)")
    }
  }

  @Test func bytesNextToACarriageReturnAreNotMistakenForIt() {
    // NB: 0x0C and 0x0E differ from "\r" in one bit; 0x8D has its low bits.
    #expect("\u{0C}\u{0E}\u{0C}\u{0E}\u{0C}\u{0E}\u{0C}\u{0E}\u{0C}".hasOneByteCharacters)
    #expect("\u{0D}\u{0E}\u{0C}\u{0E}\u{0C}\u{0E}\u{0C}\u{0E}\u{0C}".hasOneByteCharacters == false)
  }
}
