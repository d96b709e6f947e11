import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A key for a value kept in a JSON file.
///
/// ```swift
/// @Shared(.fileStorage(URL(filePath: "/var/lib/app/settings.json"))) var settings = Settings()
/// ```
///
/// The first `Shared` for the file reads it (a missing file leaves the default); each change is
/// written at once, atomically: the new JSON goes to a temporary file beside it, which is flushed
/// to disk and then renamed over the file, so a reader (or a crash) never sees half of it. A
/// change another process makes to the file is read the next time the value is read; when the
/// file is deleted, the value goes back to the default.
///
/// A file that cannot be read or decoded is reported (a runtime issue) and leaves the value as it
/// was. In a test, the value is kept in memory and the file is never touched; run the code with
/// the `.live` dependency context to reach the file.
public struct FileStorageKey<Value: Codable & Sendable>: SharedKey, CustomStringConvertible {
  /// The file.
  public let url: URL
  /// The version of the file last read or written.
  private let seen = SeenVersion()

  /// The file's path: keys for the same file name one value.
  public var id: String { url.standardizedFileURL.path }

  /// The key as written: `.fileStorage("/var/lib/app/settings.json")`.
  public var description: String { ".fileStorage(\(Diff.dump(id)))" }

  init(url: URL) {
    self.url = url
  }
}

extension SharedKey {
  /// A key for a value kept in the JSON file at `url`.
  ///
  /// - Parameter url: The file: declarations with the same file share the value.
  /// - Returns: The key.
  public static func fileStorage<Value>(_ url: URL) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url)
  }
}

extension FileStorageKey: PersistentSharedKey {
  func load() throws -> Value? {
    let path = id
    let version = FileVersion(path: path)
    seen.version = version
    guard version != nil else { return nil }
    let data: Data
    do {
      data = try Data(contentsOf: URL(filePath: path))
    } catch {
      throw FileStorageFailure.unreadable(path: path, reason: FileStorageFailure.reason(error))
    }
    do {
      return try JSONDecoder().decode(Value.self, from: data)
    } catch {
      throw FileStorageFailure.undecodable(
        path: path, type: Diff.typeName(Value.self), reason: FileStorageFailure.reason(error))
    }
  }

  func save(_ value: Value) throws {
    let path = id
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data: Data
    do {
      data = try encoder.encode(value)
    } catch {
      throw FileStorageFailure.unencodable(
        type: Diff.typeName(Value.self), reason: FileStorageFailure.reason(error))
    }
    try Self.writeAtomically(data, to: path)
    seen.version = FileVersion(path: path)
  }

  func hasChanged() -> Bool {
    FileVersion(path: id) != seen.version
  }

  /// Writes `data` to a temporary file in `path`'s folder, flushes it, and renames it over
  /// `path`; on failure nothing is left behind and `path` is as it was.
  ///
  /// The file keeps the mode it had (a new one is `0644`), unless `mode` says otherwise.
  static func writeAtomically(_ data: Data, to path: String, mode: mode_t? = nil) throws {
    let folder = (path as NSString).deletingLastPathComponent
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
      throw FileStorageFailure.unwritable(path: path, reason: "'\(folder)' is not a folder")
    }
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw FileStorageFailure.unwritable(path: path, reason: FileStorageFailure.reason(error))
    }
    let name = (path as NSString).lastPathComponent
    var template = Array((folder + "/." + name + ".XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else {
      throw FileStorageFailure.unwritable(path: path, reason: String(cString: strerror(errno)))
    }
    let temporary = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var failure = writeAll(data, to: descriptor)
    // NB: `mkstemp` makes the file readable by its owner only; keep the mode the file had.
    var info = stat()
    let mode = mode ?? (stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o644)
    if failure == nil, fchmod(descriptor, mode) != 0 { failure = String(cString: strerror(errno)) }
    if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
    close(descriptor)
    if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
    if let failure {
      unlink(temporary)
      throw FileStorageFailure.unwritable(path: path, reason: failure)
    }
  }
}

/// Writes all of `data` to `descriptor`; returns why it could not, or `nil`.
private func writeAll(_ data: Data, to descriptor: Int32) -> String? {
  data.withUnsafeBytes { bytes -> String? in
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, base + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return String(cString: strerror(errno))
      }
      offset += written
    }
    return nil
  }
}

/// What a file key last saw of its file, shared by the copies of the key.
final class SeenVersion: Sendable {
  private let storage = Mutex<FileVersion?>(nil)

  var version: FileVersion? {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }
}

/// What tells one content of a file from the next: a rename gives a new inode, a write a new
/// modification time or size.
struct FileVersion: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64
  let size: Int64
  let seconds: Int
  let nanoseconds: Int

  /// The version of the file at `path`, or `nil` when there is none.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.device = UInt64(info.st_dev)
    self.inode = UInt64(info.st_ino)
    self.size = Int64(info.st_size)
    self.seconds = Int(info.st_mtim.tv_sec)
    self.nanoseconds = Int(info.st_mtim.tv_nsec)
  }
}

/// Why a file key could not read or write its file.
enum FileStorageFailure: Error, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case undecodable(path: String, type: String, reason: String)
  case unencodable(type: String, reason: String)
  case unwritable(path: String, reason: String)

  var description: String {
    switch self {
    case .unreadable(let path, let reason):
      "'\(path)' could not be read: \(reason)"
    case .undecodable(let path, let type, let reason):
      "'\(path)' does not hold a \(type) in JSON: \(reason)"
    case .unencodable(let type, let reason):
      "a \(type) could not be encoded as JSON: \(reason)"
    case .unwritable(let path, let reason):
      "'\(path)' could not be written: \(reason)"
    }
  }

  /// A sentence for a Foundation error: a decoding error's own words and where, or the error's
  /// description.
  static func reason(_ error: any Error) -> String {
    guard let error = error as? DecodingError else {
      let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
      if let underlying, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
      }
      return error.localizedDescription
    }
    func at(_ context: DecodingError.Context) -> String {
      let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      return path.isEmpty ? "" : " (at '\(path.joined(separator: "."))')"
    }
    switch error {
    case .dataCorrupted(let context):
      return context.debugDescription + at(context)
    case .keyNotFound(let key, let context):
      return "no value for '\(key.stringValue)'" + at(context)
    case .typeMismatch(let type, let context):
      return "expected \(Diff.typeName(type))" + at(context)
    case .valueNotFound(let type, let context):
      return "expected \(Diff.typeName(type)), found null" + at(context)
    @unknown default:
      return "\(error)"
    }
  }
}
