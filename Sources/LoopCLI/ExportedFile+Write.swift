import Foundation
import Interchange
import Persistence

extension ExportedFile {
  /// Writes the file, atomically: a reader never sees half of it, and a failure leaves any
  /// previous file as it was.
  ///
  /// A new file is readable by its owner alone (`0600`, whatever the umask); a file that was
  /// there keeps its mode. The REPL writes it, not the feature: the feature makes the bytes, the
  /// place that writes files for the user keeps them private.
  ///
  /// - Parameters:
  ///   - path: Where to write it.
  ///   - name: How an error names the file (the path as the user typed it); `path` by default.
  /// - Throws: ``InterchangeError/unwritableFile(file:reason:)``.
  func write(toPath path: String, named name: String? = nil) throws(InterchangeError) {
    let file = name ?? path
    var isFolder: ObjCBool = false
    let folder = PrivateFile.folder(of: path)
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
    else {
      throw .unwritableFile(file: file, reason: "its folder does not exist")
    }
    do {
      try PrivateFile.write(contents, toPath: path)
    } catch {
      throw .unwritableFile(file: file, reason: error.reason)
    }
  }
}
