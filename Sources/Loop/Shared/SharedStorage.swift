import Foundation
import Synchronization

/// Where keyed shared values live: the roots made for each key, so that every `Shared` declared
/// with a key gets the same one.
///
/// The app has one storage, whose persistent keys read and write their files. A test process
/// has one per test, kept in memory: the storage of the current test, found through
/// `LoopTesting` (see ``DefaultIssueReporter``), so each test starts fresh without setting
/// anything up, and what the test declares and what its feature declares meet. Outside a test
/// (no current test, or the `.preview` context) the test and preview contexts share one
/// in-memory storage.
final class SharedStorage: @unchecked Sendable {
  private struct Key: Hashable {
    /// The key's type without its generic arguments, `Loop.InMemoryKey`: keys of one kind with
    /// one id name one value, whatever value type each declares.
    let kind: Substring
    let id: AnyHashable
  }

  private let lock = NSRecursiveLock()
  private var roots: [Key: any SharedRoot] = [:]
  /// Whether persistent keys read and write what they name (a file), rather than memory only.
  private let isPersistent: Bool

  private init(isPersistent: Bool) {
    self.isPersistent = isPersistent
  }

  /// The app's storage.
  private static let live = SharedStorage(isPersistent: true)

  /// The storage of each test, by the test's name.
  private static let tests = Mutex<[String: SharedStorage]>([:])

  /// The storage for the current context: the app's when the dependencies' context is `.live`,
  /// else the current test's.
  static var current: SharedStorage {
    guard DependencyValues.current.context != .live else { return live }
    let test = DefaultIssueReporter.currentTest ?? ""
    return tests.withLock { tests in
      if let storage = tests[test] { return storage }
      let storage = SharedStorage(isPersistent: false)
      tests[test] = storage
      return storage
    }
  }

  /// The root for `key`, made from `defaultValue` (or the value the key keeps) the first time.
  func root<K: SharedKey>(for key: K, default defaultValue: () -> K.Value) -> SharedBox<K.Value> {
    // NB: `_typeName`, not `String(reflecting:)`, which first asks the runtime whether the
    // metatype describes itself (three searches of every conformance, for each key type).
    let storageKey = Key(
      kind: _typeName(K.self, qualified: true).prefix { $0 != "<" }, id: AnyHashable(key.id))
    lock.lock()
    defer { lock.unlock() }
    // NB: named when a message needs it (see `SharedBox.makeName`).
    let name = { @Sendable in "Shared<\(Diff.typeName(K.Value.self))>(\(key))" }
    if let root = roots[storageKey] {
      if let root = root as? SharedBox<K.Value> { return root }
      reportIssue(
        """
        \(name()) names a value of another type, '\(Diff.typeName(type(of: root.anyValue)))'; \
        this declaration gets a value of its own.

        To fix, declare the key with one value type everywhere.
        """)
      return SharedBox(value: defaultValue(), name: name())
    }
    let persistence = isPersistent ? key as? any PersistentSharedKey<K.Value> : nil
    let root = SharedBox(value: defaultValue(), name: name(), persistence: persistence)
    roots[storageKey] = root
    return root
  }
}
