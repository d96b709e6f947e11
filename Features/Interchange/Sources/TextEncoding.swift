import Foundation

/// The text encodings a bank statement comes in: UTF-8, or one of the single-byte encodings
/// European banks still export.
///
/// ```swift
/// TextEncoding(name: "iso-8859-1")  // .latin1, as a rules file's `encoding` names it
/// TextEncoding.latin1.decode([0x4D, 0xFC, 0x6C, 0x6C])  // "Müll"
/// ```
public enum TextEncoding: String, Equatable, Sendable, CaseIterable {
  /// UTF-8 (with or without a byte order mark).
  case utf8 = "utf-8"
  /// ISO-8859-1 (Latin-1), read as Windows-1252, its superset.
  ///
  /// NB: as browsers do (the WHATWG Encoding Standard maps the label `iso-8859-1` to
  /// windows-1252): bytes 0x80–0x9F are control characters in ISO-8859-1, which no statement
  /// holds, and `€`, `„` or `–` in Windows-1252, which statements labelled Latin-1 do hold.
  case latin1 = "iso-8859-1"
  /// ISO-8859-15 (Latin-9): Latin-1 with `€`, `Š`, `š`, `Ž`, `ž`, `Œ`, `œ` and `Ÿ`.
  case latin9 = "iso-8859-15"

  /// The encoding a name stands for, in any letter case: `utf-8` (`utf8`), `iso-8859-1`
  /// (`latin1`, `cp1252`, `windows-1252`), `iso-8859-15` (`latin9`); `nil` for any other.
  ///
  /// - Parameter name: The name, as a rules file's `encoding` gives it.
  public init?(name: String) {
    switch name.lowercased() {
    case "utf-8", "utf8": self = .utf8
    case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "cp1252", "windows-1252": self = .latin1
    case "iso-8859-15", "iso8859-15", "latin9", "latin-9": self = .latin9
    default: return nil
    }
  }

  /// Decodes bytes of a single-byte encoding; UTF-8 bytes are decoded with replacement
  /// characters for invalid sequences (check them first with ``ImportFile/text(of:file:)``).
  ///
  /// - Parameter bytes: The bytes.
  /// - Returns: The text.
  /// - Complexity: O(*n*) in the number of bytes.
  public func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    switch self {
    case .utf8:
      return String(decoding: bytes, as: UTF8.self)
    case .latin1, .latin9:
      var scalars = String.UnicodeScalarView()
      scalars.reserveCapacity(bytes.count)
      for byte in bytes {
        scalars.append(Unicode.Scalar(scalar(of: byte)) ?? "\u{FFFD}")
      }
      return String(scalars)
    }
  }

  /// The code point a byte stands for in this single-byte encoding.
  private func scalar(of byte: UInt8) -> UInt32 {
    switch (self, byte) {
    case (.latin1, 0x80...0x9F): Self.windows1252[Int(byte - 0x80)]
    case (.latin9, _): Self.latin9Differences[byte] ?? UInt32(byte)
    default: UInt32(byte)
    }
  }

  /// Windows-1252's 0x80–0x9F; its five unassigned bytes keep their Latin-1 control codes.
  private static let windows1252: [UInt32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
    0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
  ]

  /// Where ISO-8859-15 differs from ISO-8859-1.
  private static let latin9Differences: [UInt8: UInt32] = [
    0xA4: 0x20AC, 0xA6: 0x0160, 0xA8: 0x0161, 0xB4: 0x017D, 0xB8: 0x017E, 0xBC: 0x0152,
    0xBD: 0x0153, 0xBE: 0x0178,
  ]
}

extension ImportFile {
  /// The text of a bank statement's bytes: UTF-8 after a byte order mark, else in `encoding`,
  /// or, when `encoding` is `nil`, UTF-8 when every byte is valid UTF-8 and ISO-8859-1 when not.
  ///
  /// - Parameters:
  ///   - data: The file's bytes.
  ///   - file: The file's name, for errors.
  ///   - encoding: The encoding a rules file names, or `nil` to find it.
  /// - Returns: The text, and the encoding it was read in.
  /// - Throws: As ``text(of:file:)``, which checks UTF-8 (given or found); a single-byte file
  ///   is checked for size, emptiness and NUL bytes.
  public static func statementText(
    of data: Data, file: String, encoding: TextEncoding?
  ) throws(InterchangeError) -> (text: String, encoding: TextEncoding) {
    let bytes = [UInt8](data)
    let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
    // NB: a byte order mark is UTF-8 whatever a rules file says: read as Latin-1 it would
    // become `ï»¿` in front of the first line.
    let chosen =
      hasBOM ? .utf8 : encoding ?? (firstInvalidUTF8(bytes[...]) == nil ? .utf8 : .latin1)
    if chosen == .utf8 { return (try text(of: data, file: file), .utf8) }
    guard data.count <= sizeLimit else { throw .fileTooLarge(file: file, bytes: data.count) }
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      throw .utf16(file: file)
    }
    guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
      throw .emptyFile(file: file)
    }
    guard !bytes.contains(0) else { throw .binaryFile(file: file) }
    return (chosen.decode(bytes), chosen)
  }
}
