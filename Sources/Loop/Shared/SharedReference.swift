import Foundation

/// Where a `Shared` reads and changes its value: the root that holds it, or a path into a root.
///
/// Every read and change names the values it sees: `nil` for the live ones, or a
/// ``SharedValues`` snapshot, which a test store uses to hold the values roots had before an
/// action, or the values its assertion expects, without touching the live ones.
protocol SharedReference<Value>: Sendable {
  associatedtype Value

  /// The root whose value this reference reads through.
  var root: any SharedRoot { get }

  /// The value, live or as `values` has it.
  func value(in values: SharedValues?) -> Value

  /// Changes the value, live (under the root's lock, saving it if the root is persisted) or in
  /// `values`.
  func modify<R>(in values: SharedValues?, _ body: (inout Value) throws -> R) rethrows -> R
}

/// A root of shared values, with its type erased: what snapshots and change trackers hold.
package protocol SharedRoot: AnyObject, Sendable {
  /// The live value.
  var anyValue: Any { get }

  /// How messages name it: `Shared<Int>(.inMemory("count"))`.
  var name: String { get }
}

/// The box that holds a shared value: one per `Shared(value:)`, and one per key in a storage.
///
/// NB: the value is changed in place, so a closure given to `withLock` must change it through its
/// argument: reading the shared value inside (`$count.withLock { $0 = count + 1 }`) is an
/// overlapping access, which Swift stops with "Simultaneous accesses". The lock is recursive so
/// that such a mistake stops there rather than hanging.
final class SharedBox<Value>: SharedReference, SharedRoot, @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var current: Value
  /// The key the value is kept under, when it is persisted (a file, outside tests).
  private let persistence: (any PersistentSharedKey<Value>)?
  /// The value the declaration gave, which the value returns to when its file is deleted.
  private let initialValue: Value
  /// Makes ``name``.
  ///
  /// NB: made only when a message needs it: naming a type asks the runtime whether each type in
  /// it names itself (`CustomDiffTypeName`), a search of every conformance, which each
  /// `Shared(value:)` paid while `loop` started.
  private let makeName: @Sendable () -> String

  var name: String { makeName() }

  init(
    value: Value, name: @escaping @autoclosure @Sendable () -> String,
    persistence: (any PersistentSharedKey<Value>)? = nil
  ) {
    self.initialValue = value
    self.makeName = name
    self.persistence = persistence
    if let persistence {
      self.current = Self.load(persistence, name: name) ?? value
    } else {
      self.current = value
    }
  }

  var root: any SharedRoot { self }

  var anyValue: Any { value(in: nil) }

  func value(in values: SharedValues?) -> Value {
    if let values, let value = values[self] as? Value { return value }
    lock.lock()
    defer { lock.unlock() }
    reloadIfChanged()
    return current
  }

  func modify<R>(in values: SharedValues?, _ body: (inout Value) throws -> R) rethrows -> R {
    if let values {
      var value = self.value(in: values)
      defer { values[self] = value }
      return try body(&value)
    }
    lock.lock()
    defer { lock.unlock() }
    reloadIfChanged()
    // NB: saved even when `body` throws: a change it made before throwing stays in memory, and
    // the file must say what the memory says.
    defer { save() }
    return try body(&current)
  }

  /// Picks up a change another process made to the persisted value.
  private func reloadIfChanged() {
    guard let persistence, persistence.hasChanged() else { return }
    do {
      current = try persistence.load() ?? initialValue
    } catch {
      reportIssue(Self.loadFailure(error, name: name))
    }
  }

  private func save() {
    guard let persistence else { return }
    do {
      try persistence.save(current)
    } catch {
      reportIssue(
        """
        \(name) could not be saved: \(error)

        The value changed in memory; the stored value is the one saved before.
        """)
    }
  }

  private static func load(
    _ persistence: any PersistentSharedKey<Value>, name: () -> String
  ) -> Value? {
    do {
      return try persistence.load()
    } catch {
      reportIssue(loadFailure(error, name: name()))
      return nil
    }
  }

  private static func loadFailure(_ error: any Error, name: String) -> String {
    """
    \(name) could not be loaded: \(error)

    The value stays as it was; the next change overwrites what is stored.
    """
  }
}

/// A reference to a member of another reference's value: `$syncUp.title`, `$syncUps[id: id]`.
final class KeyPathReference<Base, Value>: SharedReference, @unchecked Sendable {
  // NB: key paths are immutable; `@unchecked` because a key path with subscript arguments is
  // not `Sendable` to the compiler, though its arguments are `Hashable` values it copied.
  private let base: any SharedReference<Base>
  private let keyPath: WritableKeyPath<Base, Value>

  init(base: any SharedReference<Base>, keyPath: WritableKeyPath<Base, Value>) {
    self.base = base
    self.keyPath = keyPath
  }

  var root: any SharedRoot { base.root }

  func value(in values: SharedValues?) -> Value {
    base.value(in: values)[keyPath: keyPath]
  }

  func modify<R>(in values: SharedValues?, _ body: (inout Value) throws -> R) rethrows -> R {
    try base.modify(in: values) { try body(&$0[keyPath: keyPath]) }
  }
}

/// A reference to the value of an optional reference, made while it was not `nil`.
///
/// When the optional becomes `nil` (the element was removed), it reads the last value it saw, and
/// a change is dropped and reported: there is nothing left to change.
final class UnwrappedReference<Value>: SharedReference, @unchecked Sendable {
  private let base: any SharedReference<Value?>
  private let lock = NSLock()
  private var lastValue: Value

  init(base: any SharedReference<Value?>, value: Value) {
    self.base = base
    self.lastValue = value
  }

  var root: any SharedRoot { base.root }

  func value(in values: SharedValues?) -> Value {
    guard let value = base.value(in: values) else { return lock.withLock { lastValue } }
    if values == nil { lock.withLock { lastValue = value } }
    return value
  }

  func modify<R>(in values: SharedValues?, _ body: (inout Value) throws -> R) rethrows -> R {
    try base.modify(in: values) { optional in
      guard var value = optional else {
        reportIssue(
          """
          A change to \(root.name) through an unwrapped optional was dropped: the optional is nil.

          To fix, check that the value is still there before changing it.
          """)
        var copy = lock.withLock { lastValue }
        return try body(&copy)
      }
      defer {
        optional = value
        if values == nil { lock.withLock { lastValue = value } }
      }
      return try body(&value)
    }
  }
}
