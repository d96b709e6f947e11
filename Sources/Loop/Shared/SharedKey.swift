/// Names a shared value: every `@Shared` declared with equal keys shares one value.
///
/// Loop's keys keep the value in memory (``InMemoryKey``, `.inMemory("count")`) or in a JSON
/// file (``FileStorageKey``, `.fileStorage(url)`). Declare a key your features share once, with
/// its default, as a static member (see ``SharedKeyDefault``):
///
/// ```swift
/// extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
///   static var syncUps: Self {
///     Self[.fileStorage(URL(filePath: "/var/lib/app/sync-ups.json")), default: []]
///   }
/// }
///
/// @Shared(.syncUps) var syncUps
/// ```
///
/// The values live in a storage: one for the process, and in a test process one for each test
/// (and each argument of a parameterized test), so that every test starts from fresh values, and
/// a key declared in the test and in the feature it tests name the same value. In a test, a file
/// key keeps its value in memory and never reads or writes the file.
public protocol SharedKey<Value>: Sendable {
  /// The type of the value the key names.
  associatedtype Value: Sendable
  /// The type of ``id``.
  associatedtype ID: Hashable & Sendable

  /// What tells keys of one type apart: keys of the same type with equal ids name one value.
  var id: ID { get }
}

/// A key whose value is kept outside memory, read when the first `Shared` for it is made,
/// saved after each change, and read again when something else changed it.
protocol PersistentSharedKey<Value>: SharedKey {
  /// The value kept, or `nil` when none is kept yet.
  func load() throws -> Value?

  /// Keeps `value`.
  func save(_ value: Value) throws

  /// Whether the value kept changed since the last `load` or `save`.
  func hasChanged() -> Bool
}

/// A key with the value to start from when nothing is stored under it yet, so a shared value is
/// declared once, with its default, and used without one.
///
/// ```swift
/// extension SharedKey where Self == InMemoryKey<Int>.Default {
///   static var count: Self { Self[.inMemory("count"), default: 0] }
/// }
///
/// @Shared(.count) var count        // 0 until something changes it
/// @Shared(.count) var other = 10   // a default of its own, for when it comes first
/// ```
public struct SharedKeyDefault<Base: SharedKey>: SharedKey {
  /// The type of the value the key names.
  public typealias Value = Base.Value

  /// The key.
  public let base: Base
  /// The value to start from.
  let defaultValue: @Sendable () -> Base.Value

  /// The key with the value to start from.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - value: The value to start from when nothing is stored under the key yet.
  public static subscript(
    key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value
  ) -> Self {
    Self(base: key, defaultValue: value)
  }

  /// The key's id.
  public var id: Base.ID { base.id }
}

extension SharedKey {
  /// The key with a default: write `Self[key, default: value]` to make one.
  public typealias Default = SharedKeyDefault<Self>
}

/// A key that only adds a default to another, which names the value.
private protocol DefaultingSharedKey<Value> {
  associatedtype Value
  func shared(wrappedValue: () -> Value) -> Shared<Value>
}

extension SharedKeyDefault: DefaultingSharedKey {
  fileprivate func shared(wrappedValue: () -> Base.Value) -> Shared<Base.Value> {
    Shared(wrappedValue: wrappedValue(), base)
  }
}

extension Shared {
  /// The value `key` names, which starts as `wrappedValue` when no `Shared` for the key exists
  /// yet.
  ///
  /// ```swift
  /// @Shared(.inMemory("count")) var count = 0
  /// ```
  ///
  /// - Parameters:
  ///   - wrappedValue: The value to start from.
  ///   - key: The key.
  public init<Key: SharedKey>(wrappedValue: @autoclosure () -> Value, _ key: Key)
  where Key.Value == Value {
    if let defaulted = key as? any DefaultingSharedKey<Value> {
      self = defaulted.shared(wrappedValue: wrappedValue)
      return
    }
    self.init(reference: SharedStorage.current.root(for: key, default: wrappedValue))
  }

  /// The value `key` names, which starts as the key's default.
  ///
  /// - Parameter key: The key, with its default.
  public init<Key: SharedKey>(_ key: SharedKeyDefault<Key>) where Key.Value == Value {
    self.init(wrappedValue: key.defaultValue(), key.base)
  }

  /// The optional value `key` names, which starts as `nil`.
  ///
  /// - Parameter key: The key.
  public init<Key: SharedKey, Wrapped>(_ key: Key) where Key.Value == Value, Value == Wrapped? {
    self.init(wrappedValue: nil, key)
  }
}
