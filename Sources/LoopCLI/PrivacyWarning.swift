import Foundation
import Loop
import Persistence

/// The warnings `loop` prints at start when other users can read the database, or the data
/// folder that holds it: one line each, with the `chmod` that makes it private.
///
/// `loop` never changes the mode of a file or folder it did not create; it says what to run.
enum PrivacyWarning {
  /// The warnings for the database file at `path` and, when it is `loop`'s own, its folder.
  ///
  /// The folder is checked only when it is `dataFolder`: a folder the user chose for `--db`
  /// (their home, `/tmp`) is theirs to share.
  ///
  /// - Parameters:
  ///   - path: The database file, which may not exist yet.
  ///   - dataFolder: The folder `loop` keeps its data in by default.
  /// - Returns: The lines to print, none when nothing is shared.
  static func lines(database path: String, dataFolder: String) -> [String] {
    var lines: [String] = []
    let folder = PrivateFile.folder(of: path)
    if folder == dataFolder, PrivateFile.isReadableByOthers(atPath: folder) {
      lines.append(
        "warning: other users can read the data folder '\(folder)'; to make it yours alone: "
          + "chmod 700 \(shellQuoted(folder))")
    }
    if PrivateFile.isReadableByOthers(atPath: path) {
      lines.append(
        "warning: other users can read the database '\(path)'; to make it yours alone: "
          + "chmod 600 \(shellQuoted(path))")
    }
    return lines
  }

  /// A path as a POSIX shell reads it back: as is when it is plain, else in single quotes.
  static func shellQuoted(_ path: String) -> String {
    let plain = path.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        || "-_./+,:@%=".unicodeScalars.contains($0)
    }
    if plain, !path.isEmpty { return path }
    return "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
