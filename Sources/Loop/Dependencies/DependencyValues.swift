import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The dependencies in effect: time, ids, clocks, storage clients.
///
/// Extend it with one computed property per dependency, and read them with `@Dependency`:
///
/// ```swift
/// extension DependencyValues {
///   public var linkClient: LinkClient {
///     get { self[LinkClient.self] }
///     set { self[LinkClient.self] = newValue }
///   }
/// }
/// ```
///
/// Values come from the current task (see `withDependencies(_:operation:)`), so effects see the
/// dependencies of the store that started them. A key nobody overrode resolves by context:
/// `liveValue` in an app, `testValue` in a test process, `previewValue` in the preview context.
/// A ``TestDependencyKey`` whose live value another module declares finds it at run time.
/// Live values are created once and shared; test values are created on each use, so every test
/// starts fresh.
public struct DependencyValues: Sendable {
  /// Which of a key's values a dependency resolves to when nobody overrode it.
  public enum Context: Sendable, Equatable {
    /// The app: `liveValue`.
    case live
    /// A test: `testValue`.
    case test
    /// A demo or preview: `previewValue`.
    case preview
  }

  /// The dependencies of the current task; tasks inherit them.
  @usableFromInline @TaskLocal static var taskValues = DependencyValues(context: .default)

  /// Whether a value is being read only to be replaced (see `Reducer.dependency(_:_:)`), which
  /// is not a use a missing test value reports.
  @TaskLocal static var isOverriding = false

  /// The dependencies in effect here: those of a store's reducer running synchronously on this
  /// thread, else the task's.
  @usableFromInline
  static var current: DependencyValues {
    if let scope = SynchronousScopeSlot.shared.current {
      return Unmanaged<DependencyScope>.fromOpaque(scope).takeUnretainedValue().values
    }
    return taskValues
  }

  // NB: boxed by type, so that reading one back is a pointer cast: `as? Key.Value` from an
  // existential was a dynamic cast on every `@Dependency` read (a few per action).
  @usableFromInline var overrides: [ObjectIdentifier: DependencyBox] = [:]

  /// The context used for keys that were not overridden.
  public var context: Context

  /// The effect running in the current task, in the task's values (see
  /// ``EffectContext/current``); elsewhere it means nothing and nobody reads it.
  ///
  /// NB: it travels with the dependencies so that an effect's task gets both from one task-local
  /// value, not one push each: every command of the REPL starts an effect.
  @usableFromInline package var effectContext: EffectContext?

  /// Creates dependency values with no overrides.
  public init(context: Context) {
    self.context = context
  }

  /// Accesses the dependency for `key`.
  ///
  /// - Parameter key: The key type.
  // NB: inlinable, so that the property a module declares for its dependency reads it
  // specialized for the key: unspecialized, each read looked up the box's generic metadata.
  @inlinable
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let box = overrides[ObjectIdentifier(key)] { return box.value(of: key) }
      switch context {
      case .live: return LiveValues.value(for: key)
      case .test: return Key.testValue
      case .preview: return Key.previewValue
      }
    }
    set {
      overrides[ObjectIdentifier(key)] = TypedDependencyBox<Key.Value>(newValue)
    }
  }
}

extension DependencyValues.Context {
  /// `.test` inside a test process (an XCTest bundle, which also hosts Swift Testing), else
  /// `.live`.
  static let `default`: Self = {
    let executable = ProcessInfo.processInfo.arguments.first ?? ""
    let isTest =
      executable.hasSuffix(".xctest")
      || ProcessInfo.processInfo.environment["XCTestSessionIdentifier"] != nil
      || ProcessInfo.processInfo.environment["XCTestConfigurationFilePath"] != nil
    return isTest ? .test : .live
  }()
}

/// A dependency's value, stored under its key's `ObjectIdentifier`.
///
/// NB: only ever a ``TypedDependencyBox`` of the key's `Value`, which a key's identifier
/// determines; so reading it back needs no dynamic cast.
@usableFromInline
class DependencyBox: @unchecked Sendable {
  @usableFromInline
  init() {}

  /// The value, for the key it is stored under.
  @inlinable
  final func value<Key: TestDependencyKey>(of _: Key.Type) -> Key.Value {
    unsafeDowncast(self, to: TypedDependencyBox<Key.Value>.self).value
  }
}

/// A dependency's value of type `Value`.
@usableFromInline
final class TypedDependencyBox<Value: Sendable>: DependencyBox, @unchecked Sendable {
  @usableFromInline let value: Value

  @usableFromInline
  init(_ value: Value) {
    self.value = value
  }
}

/// Live values, created once per key: a live value may open a database, so it must not be
/// built on every access.
@usableFromInline
enum LiveValues {
  @usableFromInline static let cache = Mutex<[ObjectIdentifier: DependencyBox]>([:])

  @inlinable
  static func value<Key: TestDependencyKey>(for key: Key.Type) -> Key.Value {
    if let box = cache.withLock({ $0[ObjectIdentifier(key)] }) { return box.value(of: key) }
    return make(key)
  }

  /// Builds the live value of `key`, once; the test value, reporting an issue, for a key whose
  /// live module the program does not link.
  @usableFromInline
  static func make<Key: TestDependencyKey>(_ key: Key.Type) -> Key.Value {
    // NB: built outside the lock, since a live value may read other dependencies.
    let value: Key.Value
    if let live = liveValue(of: key) {
      value = live
    } else {
      reportIssue(
        """
        '\(dependencyName(key))' has no live value, but was read in a live context: its \
        conformance to DependencyKey (in the client's live module) is not linked into this \
        program. Its test value is used instead.

        To fix, import the live module where the app is composed, or override the dependency.
        """)
      value = Key.testValue
    }
    return cache.withLock { cache in
      if let existing = cache[ObjectIdentifier(key)] { return existing.value(of: key) }
      cache[ObjectIdentifier(key)] = TypedDependencyBox<Key.Value>(value)
      return value
    }
  }

  /// The live value of `key` when some module linked into the program conforms it to
  /// ``DependencyKey``, else `nil`.
  ///
  /// NB: a cast, not a constraint: the interface module that reads the key knows it only as a
  /// ``TestDependencyKey``, and the runtime finds the conformance wherever it was declared.
  static func liveValue<Key: TestDependencyKey>(of key: Key.Type) -> Key.Value? {
    guard let live = key as? any DependencyKey.Type else { return nil }
    return liveValue(ofLive: live) as? Key.Value
  }

  private static func liveValue<Live: DependencyKey>(ofLive key: Live.Type) -> any Sendable {
    key.liveValue
  }
}

/// Runs `operation` with changed dependencies.
///
/// Effects started inside see them too.
///
/// ```swift
/// let store = withDependencies {
///   $0.date = .constant(Date(timeIntervalSince1970: 0))
/// } operation: {
///   Store(initialState: Feature.State()) { Feature() }
/// }
/// ```
///
/// - Parameters:
///   - update: Changes the current dependencies.
///   - operation: The code to run with the changed dependencies.
/// - Returns: What `operation` returned.
/// - Throws: What `update` or `operation` threw.
@discardableResult
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  values.effectContext = EffectContext.current
  return try DependencyValues.$taskValues.withValue(values) {
    try DependencyScope(values).run(operation)
  }
}

/// Runs asynchronous `operation` with changed dependencies.
///
/// Tasks it starts see them too.
///
/// - Parameters:
///   - update: Changes the current dependencies.
///   - isolation: The actor the operation runs on.
///   - operation: The code to run with the changed dependencies.
/// - Returns: What `operation` returned.
/// - Throws: What `update` or `operation` threw.
@discardableResult
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  values.effectContext = EffectContext.current
  return try await DependencyValues.$taskValues.withValue(values, operation: operation)
}

extension DependencyValues {
  /// The dependencies of the current task.
  public static var currentValues: DependencyValues { current }

  /// Runs `operation` with exactly `values` as the dependencies, for it and the tasks it starts.
  @usableFromInline
  package static func with<R>(_ values: DependencyValues, operation: () throws -> R) rethrows -> R {
    let values = values.inCurrentEffect()
    return try $taskValues.withValue(values) { try DependencyScope(values).run(operation) }
  }

  /// Runs `body`, which starts a task, with exactly `values` for that task to inherit.
  ///
  /// NB: bound around creating the task, not inside it: a task copies its creator's task-local
  /// values when it is created, while a push inside the task would cost it executor switches.
  /// A task that starts immediately runs its first part inside `body`, with its own copy.
  ///
  /// - Parameters:
  ///   - values: The dependencies, with the context of the effect the task runs.
  ///   - body: Starts the task.
  /// - Returns: The task.
  @usableFromInline
  package static func startingTask(
    with values: DependencyValues, _ body: () -> Task<Void, Never>
  ) -> Task<Void, Never> {
    $taskValues.withValue(values, operation: body)
  }

  /// These values, in the effect running in the current task: binding other dependencies
  /// leaves the effect the task runs as it was, as when each had a task-local value of its own.
  package func inCurrentEffect() -> DependencyValues {
    var values = self
    values.effectContext = EffectContext.current
    return values
  }
}

/// Dependencies for code that runs synchronously, such as a store's reducer.
///
/// NB: a task-local value costs a push and a pop in the task's storage on every use; a store
/// sends thousands of actions a second and only needs its dependencies visible while its
/// reducer runs, which is synchronous. So the store keeps a scope and installs it in a
/// thread-local slot around each reducer call (nanoseconds); the task-local value is bound
/// only around creating an effect's task, with the dependencies the effect captured.
@usableFromInline
package final class DependencyScope: Sendable {
  /// The dependencies.
  package let values: DependencyValues

  /// Creates a scope for `values`.
  @usableFromInline
  package init(_ values: DependencyValues) {
    self.values = values
  }

  /// Runs `body` with these dependencies visible to `@Dependency` on this thread.
  ///
  /// - Parameter body: Synchronous code.
  /// - Returns: What `body` returned.
  @inlinable
  package func run<R>(_ body: () throws -> R) rethrows -> R {
    let scope = Unmanaged.passUnretained(self).toOpaque()
    let slot = SynchronousScopeSlot.shared
    let previous = slot.install(scope)
    defer { slot.restore(previous, replacing: scope) }
    return try body()
  }
}

/// A thread-specific slot: each thread's synchronous dependency scope.
///
/// NB: a store keeps a copy of `shared` (`StoreCore.scopeSlot`) rather than reading the global
/// around each reducer call: every read of a global checks its lazy initialization through the
/// runtime (`swift_once`), which was a tenth of a plain send.
@usableFromInline
struct SynchronousScopeSlot: Sendable {
  let key: pthread_key_t

  /// The slot: one key for every thread.
  @usableFromInline static let shared: SynchronousScopeSlot = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return SynchronousScopeSlot(key: key)
  }()

  /// This thread's scope.
  var current: UnsafeMutableRawPointer? { pthread_getspecific(key) }

  /// Installs `scope` as this thread's and returns the one before, to give back to
  /// `restore(_:replacing:)`; installing the scope already there writes nothing.
  @usableFromInline
  func install(_ scope: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let previous = pthread_getspecific(key)
    if previous != scope { pthread_setspecific(key, scope) }
    return previous
  }

  /// Puts back the scope `install(_:)` replaced with `scope`.
  @usableFromInline
  func restore(_ previous: UnsafeMutableRawPointer?, replacing scope: UnsafeMutableRawPointer?) {
    if previous != scope { pthread_setspecific(key, previous) }
  }
}
