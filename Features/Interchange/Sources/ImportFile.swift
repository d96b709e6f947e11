import Foundation

/// Reading a file to import, and checking that it is text Loop can read.
///
/// ```swift
/// let data = try ImportFile.read(atPath: "bookmarks.html")  // checks the size first
/// ```
///
/// Each problem is one ``InterchangeError``: too large (checked before reading), empty, not
/// text, UTF-16, or not UTF-8 (Latin-1 files are refused, not guessed at: a wrong guess would
/// silently change every accented letter). A bank statement is the exception
/// (``statementText(of:file:encoding:)``): banks still export Latin-1, and its rules, inferred
/// or written, say which encoding it was read in.
public enum ImportFile {
  /// The largest file Loop imports: 100 MB (104,857,600 bytes).
  public static let sizeLimit = 100 * 1_048_576

  /// Reads a file to import, after checking its size.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - name: How errors name the file (the path as the user typed it); `path` by default.
  /// - Returns: Its bytes.
  /// - Throws: ``InterchangeError/unreadableFile(file:reason:)`` or
  ///   ``InterchangeError/fileTooLarge(file:bytes:)`` (the file is not read then).
  public static func read(atPath path: String, named name: String? = nil)
    throws(InterchangeError) -> Data
  {
    let file = name ?? path
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: path)
    } catch {
      throw .unreadableFile(file: file, reason: "there is no such file")
    }
    guard (attributes[.type] as? FileAttributeType) != .typeDirectory else {
      throw .unreadableFile(file: file, reason: "it is a folder")
    }
    if let size = (attributes[.size] as? NSNumber)?.intValue, size > sizeLimit {
      throw .fileTooLarge(file: file, bytes: size)
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .unreadableFile(file: file, reason: "permission denied")
    }
    defer { try? handle.close() }
    do {
      // NB: one byte more than the limit, so that a file that grew since it was measured is
      // still refused without reading it all.
      let data = try handle.read(upToCount: sizeLimit + 1) ?? Data()
      guard data.count <= sizeLimit else {
        throw InterchangeError.fileTooLarge(file: file, bytes: data.count)
      }
      return data
    } catch let error as InterchangeError {
      throw error
    } catch {
      throw .unreadableFile(file: file, reason: error.localizedDescription)
    }
  }

  /// The text of a file's bytes, checked: not too large, not empty, not binary, UTF-8.
  ///
  /// A UTF-8 byte order mark is dropped.
  ///
  /// - Parameters:
  ///   - data: The file's bytes.
  ///   - file: The file's name, for errors.
  /// - Returns: The text.
  /// - Throws: ``InterchangeError/fileTooLarge(file:bytes:)``,
  ///   ``InterchangeError/emptyFile(file:)``, ``InterchangeError/utf16(file:)``,
  ///   ``InterchangeError/binaryFile(file:)`` or ``InterchangeError/notUTF8(file:line:byte:)``.
  public static func text(of data: Data, file: String) throws(InterchangeError) -> String {
    guard data.count <= sizeLimit else { throw .fileTooLarge(file: file, bytes: data.count) }
    let bytes = [UInt8](data)
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
      || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF])
    {
      throw .utf16(file: file)
    }
    let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
    guard !body.allSatisfy(isWhitespace) else { throw .emptyFile(file: file) }
    guard !body.contains(0) else { throw .binaryFile(file: file) }
    if let invalid = firstInvalidUTF8(body) {
      let line = body[..<invalid].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
      throw .notUTF8(file: file, line: line, byte: body[invalid])
    }
    return String(decoding: body, as: UTF8.self)
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// The index of the first byte that does not start (or continue) a valid UTF-8 character.
  static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> Int? {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let lead = bytes[index]
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0x00...0x7F:
        index += 1
        continue
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return index
      }
      guard index + length <= bytes.endIndex else { return index }
      // NB: only the second byte has narrower bounds (no overlong forms, no surrogates).
      guard (low...high).contains(bytes[index + 1]) else { return index }
      for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
        return index
      }
      index += length
    }
    return nil
  }
}
