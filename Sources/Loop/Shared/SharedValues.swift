import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Values of shared roots at one moment, kept apart from their live values: what a test store
/// compares when it asserts a change to shared state.
///
/// A root it has no value for reads live. It holds its roots, so that an identifier it keys by
/// cannot be reused by another root while it exists.
///
/// NB: a class, so that a `withLock` inside an assertion closure can change the values the
/// assertion expects; one is only used on the thread of the assertion that made it.
package final class SharedValues: @unchecked Sendable {
  private var values: [ObjectIdentifier: (root: any SharedRoot, value: Any)]

  /// Creates a snapshot holding no value: every root reads live.
  package init() {
    self.values = [:]
  }

  private init(values: [ObjectIdentifier: (root: any SharedRoot, value: Any)]) {
    self.values = values
  }

  /// The value `root` has here, or `nil` when it reads live.
  package subscript(root: any SharedRoot) -> Any? {
    get { values[ObjectIdentifier(root)]?.value }
    set {
      if let newValue {
        values[ObjectIdentifier(root)] = (root, newValue)
      } else {
        values[ObjectIdentifier(root)] = nil
      }
    }
  }

  /// The roots with a value here.
  package var roots: [any SharedRoot] { values.values.map(\.root) }

  /// A copy, to change without changing this one.
  package func copy() -> SharedValues {
    SharedValues(values: values)
  }

  /// These values, with `other`'s where both have one.
  package func merging(_ other: SharedValues) -> SharedValues {
    SharedValues(values: values.merging(other.values) { $1 })
  }
}

/// The values reads and changes of shared state see while a test store checks an assertion.
///
/// Inside ``run(_:against:_:)``, a `Shared` reads and changes its value in `expected`, and an
/// equality or a diff of two `Shared` values takes the left one's value from `expected` and the
/// right one's from `actual`. So a test store compares `expected == actual` with each side's own
/// shared values, though both states hold the same references.
package enum SharedAssertion {
  /// The values of the assertion running on this thread.
  final class Scope {
    let expected: SharedValues
    let actual: SharedValues

    init(expected: SharedValues, actual: SharedValues) {
      self.expected = expected
      self.actual = actual
    }
  }

  /// Runs `body` with shared values read and changed in `expected`, and compared against
  /// `actual`.
  ///
  /// NB: put the expected value on the left of `==`, and pass it first to a diff: the left side
  /// reads `expected`. (`Dictionary`'s `==` puts its right operand's values on the left; a
  /// `Shared` inside a dictionary compares the same way only when both sides hold the same
  /// reference, which the same state before and after an action does.)
  ///
  /// - Parameters:
  ///   - expected: The values of the left side, which changes made by `body` go to.
  ///   - actual: The values of the right side.
  ///   - body: The comparison, or the assertion closure.
  /// - Returns: What `body` returned.
  /// - Throws: What `body` threw.
  package static func run<R>(
    _ expected: SharedValues, against actual: SharedValues, _ body: () throws -> R
  ) rethrows -> R {
    let scope = Scope(expected: expected, actual: actual)
    let previous = pthread_getspecific(scopeKey)
    pthread_setspecific(scopeKey, Unmanaged.passUnretained(scope).toOpaque())
    defer { pthread_setspecific(scopeKey, previous) }
    return try withExtendedLifetime(scope) { try body() }
  }

  /// The assertion running on this thread, if any.
  static var current: Scope? {
    guard let scope = pthread_getspecific(scopeKey) else { return nil }
    return Unmanaged<Scope>.fromOpaque(scope).takeUnretainedValue()
  }
}

private let scopeKey: pthread_key_t = {
  var key = pthread_key_t()
  pthread_key_create(&key, nil)
  return key
}()
