import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A key for a small value (a setting) kept under a name in the app's settings file: TCA's
/// `.appStorage("key")`, with a JSON file in the data folder where TCA has `UserDefaults`.
///
/// ```swift
/// @Shared(.appStorage("pageSize")) var pageSize = 1_000
/// ```
///
/// Every setting of the app lives in one file, ``SettingsFile`` (the `\.defaultAppStorage`
/// dependency), a JSON object with one member per key. Like ``FileStorageKey``: the first
/// `Shared` for a key reads the file, each change rewrites it at once, atomically (a temporary
/// file, flushed, renamed over it), readable by its owner only (mode `0600`); a change another
/// process makes is seen on the next read; a missing file or member leaves the default. In a
/// test each test starts from a fresh in-memory value and the file is never touched.
public struct AppStorageKey<Value: Codable & Sendable>: SharedKey, CustomStringConvertible {
  /// The setting's name: its member in the settings file.
  public let key: String
  /// The file the setting lives in.
  public let file: SettingsFile
  /// The version of the file last read or written.
  private let seen = SeenVersion()

  /// The settings file's path and the setting's name: keys for one name in one file name one
  /// value.
  public var id: [String] { [file.url.standardizedFileURL.path, key] }

  /// The key as written: `.appStorage("pageSize")`.
  public var description: String { ".appStorage(\(Diff.dump(key)))" }

  init(key: String, file: SettingsFile) {
    self.key = key
    self.file = file
  }
}

extension SharedKey {
  /// A key for a setting kept under `key` in the settings file of the `\.defaultAppStorage`
  /// dependency.
  ///
  /// - Parameter key: The setting's name: declarations with the same name share the value.
  /// - Returns: The key.
  public static func appStorage<Value>(_ key: String) -> Self where Self == AppStorageKey<Value> {
    AppStorageKey(key: key, file: DependencyValues.current.defaultAppStorage)
  }
}

extension AppStorageKey: PersistentSharedKey {
  func load() throws -> Value? {
    let path = file.url.path
    seen.version = FileVersion(path: path)
    guard seen.version != nil, let member = try file.members()[key] else { return nil }
    do {
      let data = try JSONSerialization.data(withJSONObject: member, options: .fragmentsAllowed)
      return try JSONDecoder().decode(Value.self, from: data)
    } catch {
      throw FileStorageFailure.undecodable(
        path: path + "' member '" + key, type: Diff.typeName(Value.self),
        reason: FileStorageFailure.reason(error))
    }
  }

  func save(_ value: Value) throws {
    let member: Any
    do {
      member = try JSONSerialization.jsonObject(
        with: JSONEncoder().encode(value), options: .fragmentsAllowed)
    } catch {
      throw FileStorageFailure.unencodable(
        type: Diff.typeName(Value.self), reason: FileStorageFailure.reason(error))
    }
    // NB: read again just before writing, so the other settings (and another process's change
    // to them) are kept.
    var members = try file.members()
    members[key] = member
    try file.write(members)
    seen.version = FileVersion(path: file.url.path)
  }

  func hasChanged() -> Bool {
    FileVersion(path: file.url.path) != seen.version
  }
}

/// The JSON file the app's settings (``AppStorageKey``) live in: the `\.defaultAppStorage`
/// dependency, TCA's `defaultAppStorage`.
///
/// ```swift
/// let store = Store(initialState: App.State()) { App() } withDependencies: {
///   $0.defaultAppStorage = SettingsFile(url: dataFolder.appending(component: "settings.json"))
/// }
/// ```
///
/// The live value is `settings.json` in the data folder: `$XDG_DATA_HOME/<program>`, or
/// `~/.local/share/<program>`. A test never reads or writes it (see ``AppStorageKey``).
public struct SettingsFile: Hashable, Sendable {
  /// The file.
  public let url: URL

  /// The settings file at `url`; its folder is created on the first write.
  public init(url: URL) {
    self.url = url
  }

  /// `settings.json` in the data folder of the running program.
  public static var standard: SettingsFile {
    let environment = ProcessInfo.processInfo.environment
    let data =
      environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
    let program = (CommandLine.arguments.first as NSString?)?.lastPathComponent ?? "loop"
    return SettingsFile(url: URL(filePath: data).appending(components: program, "settings.json"))
  }

  /// The members of the file's JSON object; none when there is no file.
  func members() throws -> [String: Any] {
    let path = url.path
    guard FileManager.default.fileExists(atPath: path) else { return [:] }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw FileStorageFailure.unreadable(path: path, reason: FileStorageFailure.reason(error))
    }
    do {
      guard let members = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw FileStorageFailure.undecodable(
          path: path, type: "settings object", reason: "the file is not a JSON object")
      }
      return members
    } catch let failure as FileStorageFailure {
      throw failure
    } catch {
      throw FileStorageFailure.undecodable(
        path: path, type: "settings object", reason: FileStorageFailure.reason(error))
    }
  }

  /// Writes `members` as the file's JSON object, atomically, readable by its owner only.
  func write(_ members: [String: Any]) throws {
    let data: Data
    do {
      data = try JSONSerialization.data(
        withJSONObject: members, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    } catch {
      throw FileStorageFailure.unencodable(
        type: "settings object", reason: FileStorageFailure.reason(error))
    }
    try FileStorageKey<Int>.writeAtomically(data, to: url.path, mode: 0o600)
  }
}

private enum DefaultAppStorageKey: DependencyKey {
  static var liveValue: SettingsFile { .standard }
  // NB: a test's settings stay in memory (see `AppStorageKey`); this file is never touched.
  static var testValue: SettingsFile {
    SettingsFile(url: URL(filePath: NSTemporaryDirectory()).appending(component: "settings.json"))
  }
}

extension DependencyValues {
  /// The settings file `.appStorage` keys live in (TCA's `defaultAppStorage`).
  public var defaultAppStorage: SettingsFile {
    get { self[DefaultAppStorageKey.self] }
    set { self[DefaultAppStorageKey.self] = newValue }
  }
}
