import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one way Loop creates files and folders for its user: readable by that user alone,
/// whatever the umask.
///
/// A folder created here is `0700` and a file `0600`, set when it is created, before it holds a
/// byte; a file that already exists keeps its mode (the user chose it), even when it is replaced
/// in one step. The database and its folder, exports, recordings and the REPL's history folder
/// all go through here (libedit writes the history file itself `0600`).
///
/// NB: SQLite's unix VFS creates a database's `-wal`, `-shm` and `-journal` files with the
/// database file's mode (and `fchmod`s them to it when the umask took bits away), so a
/// database file created here keeps its sidecars private too.
package enum PrivateFile {
  /// The mode of a file created here: read and write for its owner only.
  package static let fileMode: mode_t = 0o600

  /// The mode of a folder created here: its owner only.
  package static let folderMode: mode_t = 0o700

  /// Creates the folder at `path` and each missing folder above it, `0700`.
  ///
  /// - Throws: ``PrivateFileError`` when a folder cannot be created or a file is in the way.
  package static func createFolder(atPath path: String) throws(PrivateFileError) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw PrivateFileError(path: path, reason: "Not a directory")
      }
      return
    }
    let parent = folder(of: path)
    if parent != path { try createFolder(atPath: parent) }
    guard mkdir(path, folderMode) == 0 else {
      // NB: another process may have made it in the meantime.
      if errno == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
        isFolder.boolValue
      {
        return
      }
      throw PrivateFileError(path: path, errno: errno)
    }
    // NB: a umask can only take bits away from mkdir's mode; one that took the owner's (0277,
    // say) would leave a folder its owner cannot use, so the mode is set as asked.
    try setMode(folderMode, ofNew: path)
  }

  /// Creates an empty `0600` file at `path` unless something is there already, which is left
  /// as it is.
  ///
  /// - Throws: ``PrivateFileError`` when the file cannot be created.
  package static func createIfMissing(atPath path: String) throws(PrivateFileError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
    guard descriptor >= 0 else {
      if errno == EEXIST { return }
      throw PrivateFileError(path: path, errno: errno)
    }
    defer { close(descriptor) }
    try setMode(fileMode, of: descriptor, path: path)
  }

  /// Opens `path` for writing, emptied: a new file is `0600`, an existing one keeps its mode.
  ///
  /// - Returns: A handle that writes from the file's start; the caller closes it.
  /// - Throws: ``PrivateFileError`` when the file cannot be opened or created.
  package static func openForWriting(atPath path: String) throws(PrivateFileError) -> FileHandle {
    let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
    if created >= 0 {
      do throws(PrivateFileError) {
        try setMode(fileMode, of: created, path: path)
      } catch {
        close(created)
        throw error
      }
      return FileHandle(fileDescriptor: created, closeOnDealloc: true)
    }
    guard errno == EEXIST else { throw PrivateFileError(path: path, errno: errno) }
    let existing = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard existing >= 0 else { throw PrivateFileError(path: path, errno: errno) }
    return FileHandle(fileDescriptor: existing, closeOnDealloc: true)
  }

  /// Writes `data` to `path` in one step: a reader sees the old file or the new one, never half
  /// of one, and a failure leaves the old file as it was.
  ///
  /// The data goes to a new `0600` file beside `path`, given `path`'s mode when `path` exists,
  /// and is moved onto `path` with `rename(2)`.
  ///
  /// - Throws: ``PrivateFileError`` when the file cannot be written.
  package static func write(_ data: Data, toPath path: String) throws(PrivateFileError) {
    guard !path.isEmpty else { throw PrivateFileError(path: path, errno: ENOENT) }
    let name = name(of: path)
    // NB: `x/`, `.`, `..` and `/` name a folder: there is no file to put beside them.
    guard !path.hasSuffix("/"), name != ".", name != ".." else {
      throw PrivateFileError(path: path, errno: EISDIR)
    }
    let folder = folder(of: path)
    var temporary = ""
    var descriptor: Int32 = -1
    for _ in 0..<100 {
      let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
      temporary = joined(folder, ".\(name).\(suffix).partial")
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
      if descriptor >= 0 || errno != EEXIST { break }
    }
    guard descriptor >= 0 else { throw PrivateFileError(path: path, errno: errno) }
    do throws(PrivateFileError) {
      defer { close(descriptor) }
      try writeAll(data, to: descriptor, path: path)
      try setMode(existingMode(of: path) ?? fileMode, of: descriptor, path: path)
      guard fsync(descriptor) == 0 else { throw PrivateFileError(path: path, errno: errno) }
    } catch {
      unlink(temporary)
      throw error
    }
    guard rename(temporary, path) == 0 else {
      let failure = PrivateFileError(path: path, errno: errno)
      unlink(temporary)
      throw failure
    }
  }

  /// Moves the file `temporary` onto `path` in one step (`rename(2)`), giving it `path`'s mode
  /// when `path` exists and `0600` when it does not.
  ///
  /// - Throws: ``PrivateFileError`` when the mode cannot be set or the move fails; `temporary`
  ///   is left where it was then.
  package static func move(_ temporary: String, onto path: String) throws(PrivateFileError) {
    guard chmod(temporary, existingMode(of: path) ?? fileMode) == 0 else {
      throw PrivateFileError(path: temporary, errno: errno)
    }
    guard rename(temporary, path) == 0 else { throw PrivateFileError(path: path, errno: errno) }
  }

  // MARK: - Paths

  // NB: Loop's own path arithmetic, on the text as typed, never Foundation's `NSString` path
  // API: on Linux its `deletingLastPathComponent` traps on a one-character path (`x`, `.`,
  // `é`), which a user typing `export x` reached. These are POSIX's `dirname` and `basename`
  // (which never touch the file system), on every shape a user can type: `x`, `x/`, `/`, `.`,
  // `..`, an empty path, spaces, any Unicode.

  /// The folder that holds `path`, as POSIX's `dirname` says it: `a/b` → `a`, `x` → `.`,
  /// `/x` → `/`, `a/b/` → `a`, `/` → `/`, `.` → `.`, `` → `.`.
  ///
  /// - Parameter path: A path as typed, relative or absolute.
  /// - Returns: Its folder, never empty.
  package static func folder(of path: String) -> String {
    var bytes = Array(path.utf8)
    let slash = UInt8(ascii: "/")
    while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
    guard let lastSlash = bytes.lastIndex(of: slash) else { return "." }
    var end = lastSlash
    while end > 0, bytes[end - 1] == slash { end -= 1 }
    guard end > 0 else { return "/" }
    return String(decoding: bytes[..<end], as: UTF8.self)
  }

  /// The last part of `path`, as POSIX's `basename` says it: `a/b` → `b`, `x` → `x`,
  /// `a/b/` → `b`, `/` → `/`, `` → ``.
  ///
  /// - Parameter path: A path as typed.
  /// - Returns: Its last part, without slashes (but `/` for the root).
  package static func name(of path: String) -> String {
    var bytes = Array(path.utf8)
    let slash = UInt8(ascii: "/")
    while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
    guard bytes != [slash], let lastSlash = bytes.lastIndex(of: slash) else {
      return String(decoding: bytes, as: UTF8.self)
    }
    return String(decoding: bytes[(lastSlash + 1)...], as: UTF8.self)
  }

  /// The extension of `path`'s last part, after its last `.`, without it: `a/b.csv` → `csv`;
  /// empty when there is none (`x`, `.profile`, `a.`, `.`, `..`).
  ///
  /// - Parameter path: A path as typed.
  /// - Returns: The extension, as written.
  package static func pathExtension(of path: String) -> String {
    let name = name(of: path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// `path` in `folder`: `path` itself when it is absolute or `folder` is empty, else the two
  /// joined with one `/` (`a` and `b` → `a/b`, `a/` and `b` → `a/b`, `/` and `b` → `/b`).
  ///
  /// - Parameters:
  ///   - folder: A folder.
  ///   - path: A path, relative to `folder` unless it starts with `/`.
  /// - Returns: The joined path.
  package static func joined(_ folder: String, _ path: String) -> String {
    if folder.isEmpty || path.hasPrefix("/") { return path }
    return folder.hasSuffix("/") ? folder + path : folder + "/" + path
  }

  /// The permission bits of the file or folder at `path` (following a symbolic link), or `nil`
  /// when there is none.
  package static func existingMode(of path: String) -> mode_t? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o7777
  }

  /// Whether users other than the owner of the file or folder at `path` may read it: its group
  /// or everyone has the read bit.
  package static func isReadableByOthers(atPath path: String) -> Bool {
    guard let mode = existingMode(of: path) else { return false }
    return mode & 0o044 != 0
  }

  private static func setMode(
    _ mode: mode_t, of descriptor: Int32, path: String
  ) throws(PrivateFileError) {
    guard fchmod(descriptor, mode) == 0 else { throw PrivateFileError(path: path, errno: errno) }
  }

  private static func setMode(_ mode: mode_t, ofNew path: String) throws(PrivateFileError) {
    guard existingMode(of: path) != mode else { return }
    guard chmod(path, mode) == 0 else { throw PrivateFileError(path: path, errno: errno) }
  }

  private static func writeAll(
    _ data: Data, to descriptor: Int32, path: String
  ) throws(PrivateFileError) {
    let failure = data.withUnsafeBytes { buffer -> Int32 in
      guard let start = buffer.baseAddress else { return 0 }
      var offset = 0
      while offset < buffer.count {
        let written = writeBytes(descriptor, start + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return 0
    }
    if failure != 0 { throw PrivateFileError(path: path, errno: failure) }
  }
}

/// `write(2)` (a free function: inside ``PrivateFile`` the name is its method's).
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

/// A file or folder that ``PrivateFile`` could not create or write.
package struct PrivateFileError: Error, Equatable {
  /// The file or folder.
  package var path: String
  /// Why, as the system says it (`Permission denied`, `No such file or directory`).
  package var reason: String

  /// An error for `path` with its reason.
  package init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// An error for `path` with the system's sentence for `code`.
  package init(path: String, errno code: Int32) {
    self.init(path: path, reason: String(cString: strerror(code)))
  }
}
