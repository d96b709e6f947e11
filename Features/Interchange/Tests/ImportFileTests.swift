import Foundation
import Interchange
import TestSupport
import Testing

@Suite struct ImportFileTests {
  /// A fresh temporary folder, removed when `body` returns.
  func withFolder<R>(_ body: (URL) throws -> R) throws -> R {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-import-file-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
  }

  @Test func readsAFile() throws {
    try withFolder { folder in
      let path = folder.appendingPathComponent("links.csv").path
      try Data("title,url\n".utf8).write(to: URL(fileURLWithPath: path))
      #expect(try ImportFile.read(atPath: path) == Data("title,url\n".utf8))
    }
  }

  @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
    try withFolder { folder in
      let path = folder.appendingPathComponent("huge.html").path
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
      // NB: a sparse file: it has the size without taking the disk space.
      let handle = try #require(FileHandle(forWritingAtPath: path))
      try handle.truncate(atOffset: UInt64(ImportFile.sizeLimit + 1))
      try handle.close()
      #expect(throws: InterchangeError.fileTooLarge(file: path, bytes: 104_857_601)) {
        try ImportFile.read(atPath: path)
      }
    }
    #expect(
      InterchangeError.fileTooLarge(file: "huge.html", bytes: 157_286_400).description
        == "'huge.html' is 150.0 MB, over the limit of 100 MB: split it into smaller files.")
  }

  @Test func aMissingFileOrAFolderCannotBeRead() throws {
    try withFolder { folder in
      let missing = folder.appendingPathComponent("missing.html").path
      #expect(
        throws: InterchangeError.unreadableFile(file: missing, reason: "there is no such file")
      ) {
        try ImportFile.read(atPath: missing)
      }
      #expect(throws: InterchangeError.unreadableFile(file: folder.path, reason: "it is a folder"))
      {
        try ImportFile.read(atPath: folder.path)
      }
    }
    #expect(
      InterchangeError.unreadableFile(file: "a.csv", reason: "there is no such file").description
        == "Cannot read 'a.csv': there is no such file.")
  }

  @Test func theTextOfAUTF8FileLosesItsByteOrderMark() throws {
    let data = Data([0xEF, 0xBB, 0xBF] + Array("title,url\nCafé,x\n".utf8))
    #expect(try ImportFile.text(of: data, file: "a.csv") == "title,url\nCafé,x\n")
  }

  static let rejections: [([UInt8], InterchangeError, String)] = [
    ([], .emptyFile(file: "f.csv"), "'f.csv' is empty."),
    (Array(" \n\r\n\t ".utf8), .emptyFile(file: "f.csv"), "'f.csv' is empty."),
    ([0xEF, 0xBB, 0xBF, 0x0A], .emptyFile(file: "f.csv"), "'f.csv' is empty."),
    (
      [0xFF, 0xFE, 0x74, 0x00], .utf16(file: "f.csv"),
      "'f.csv' is encoded in UTF-16: save it as UTF-8 and import it again."
    ),
    (
      [0xFE, 0xFF, 0x00, 0x74], .utf16(file: "f.csv"),
      "'f.csv' is encoded in UTF-16: save it as UTF-8 and import it again."
    ),
    (
      Array("PNG".utf8) + [0x00, 0x01], .binaryFile(file: "f.csv"),
      "'f.csv' is not a text file (it holds NUL bytes, as binary files and UTF-16 do)."
    ),
    (
      Array("title,url\nok,https://a.example\nCaf".utf8) + [0xE9] + Array(",x\n".utf8),
      .notUTF8(file: "f.csv", line: 3, byte: 0xE9),
      "'f.csv' is not UTF-8: line 3 holds the byte 0xE9 ('é' in Latin-1). Save it as UTF-8 and "
        + "import it again."
    ),
    (
      Array("a\n".utf8) + [0x93, 0x41],
      .notUTF8(file: "f.csv", line: 2, byte: 0x93),
      "'f.csv' is not UTF-8: line 2 holds the byte 0x93. Save it as UTF-8 and import it again."
    ),
    (
      [0xE2, 0x82], .notUTF8(file: "f.csv", line: 1, byte: 0xE2),
      "'f.csv' is not UTF-8: line 1 holds the byte 0xE2 ('â' in Latin-1). Save it as UTF-8 and "
        + "import it again."
    ),
    (
      [0xED, 0xA0, 0x80], .notUTF8(file: "f.csv", line: 1, byte: 0xED),
      "'f.csv' is not UTF-8: line 1 holds the byte 0xED ('í' in Latin-1). Save it as UTF-8 and "
        + "import it again."
    ),
  ]

  @Test(arguments: rejections)
  func aFileThatIsNotUTF8TextGetsOneClearError(
    _ bytes: [UInt8], _ error: InterchangeError, _ message: String
  ) {
    #expect(throws: error) { try ImportFile.text(of: Data(bytes), file: "f.csv") }
    #expect(error.description == message)
  }

  @Test func validUTF8OfEveryLengthIsText() throws {
    let text = "a é € 𝄞 ☕ 한국어"
    #expect(try ImportFile.text(of: Data(text.utf8), file: "f.txt") == text)
  }
}
