import Foundation
import Loop

extension ModelContainer {
  /// The path of the app's database file: `$XDG_DATA_HOME/loop/loop.sqlite`, or
  /// `~/.local/share/loop/loop.sqlite` when `XDG_DATA_HOME` is unset or empty.
  ///
  /// Clients' live values open this file; the `loop` command opens the one `--db` names.
  ///
  /// - Parameter environment: The environment to read `XDG_DATA_HOME` and `HOME` from.
  /// - Returns: The path. The file and its folders are created when a container opens it.
  public static func defaultFilePath(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    let dataHome: String
    if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
      dataHome = xdg
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      dataHome = PrivateFile.joined(home, ".local/share")
    }
    return PrivateFile.joined(dataHome, "loop/loop.sqlite")
  }
}
