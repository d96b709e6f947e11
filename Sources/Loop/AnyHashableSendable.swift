/// A type-erased `Hashable & Sendable` value: an `AnyHashable` that can cross actors.
///
/// Loop keys cancellation ids with it; use it where TCA code does, for a dictionary key or an
/// id whose type varies:
///
/// ```swift
/// let ids: Set<AnyHashableSendable> = [AnyHashableSendable(1), AnyHashableSendable("search")]
/// ```
///
/// Two values are equal when their wrapped values are of the same type and equal, as with
/// `AnyHashable`.
public struct AnyHashableSendable: Hashable, @unchecked Sendable, CustomStringConvertible {
  // NB: `AnyHashable` is not `Sendable`, but it only ever wraps a `Sendable` value here.
  @usableFromInline let hashable: AnyHashable

  /// Wraps `base`.
  ///
  /// - Parameter base: The value.
  @inlinable
  public init(_ base: some Hashable & Sendable) {
    self.hashable = AnyHashable(base)
  }

  /// The wrapped value.
  public var base: any Hashable & Sendable {
    // NB: only ever made from a `Hashable & Sendable` value, so the cast always succeeds.
    hashable.base as? any Hashable & Sendable ?? hashable.description
  }

  /// The wrapped value, to be cast to the type it was created with.
  package var value: Any { hashable.base }

  /// The wrapped value's description.
  public var description: String { String(describing: hashable.base) }
}
