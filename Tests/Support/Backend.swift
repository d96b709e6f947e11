import Foundation
import Persistence
import Testing

/// The two storages every client behaviour runs on; both must give the same results.
public enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  /// A fresh in-memory container.
  case inMemory
  /// A fresh SQLite file in a temporary folder.
  case sqlite

  /// The name Swift Testing shows for the argument.
  public var testDescription: String { rawValue }

  /// The storage of this backend, with the SQLite file `file` in `folder`.
  public func storage(file: String, in folder: URL) -> ModelContainer.Storage {
    switch self {
    case .inMemory: .inMemory
    case .sqlite: .file(folder.appendingPathComponent(file).path)
    }
  }
}

/// A new, unique folder path in the temporary directory (not created), named after `prefix`.
public func temporaryFolder(_ prefix: String) -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
}
