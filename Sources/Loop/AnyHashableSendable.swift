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
  /// The wrapped value.
  public let base: any Hashable & Sendable

  /// Wraps `base`.
  ///
  /// - Parameter base: The value.
  @inlinable
  public init(_ base: some Hashable & Sendable) {
    self.hashable = AnyHashable(base)
    self.base = base
  }

  /// Whether both wrap equal values of one type.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.hashable == rhs.hashable }

  /// Hashes the wrapped value.
  public func hash(into hasher: inout Hasher) { hasher.combine(hashable) }

  /// The wrapped value, to be cast to the type it was created with.
  package var value: Any { hashable.base }

  /// The wrapped value's description.
  public var description: String { String(describing: hashable.base) }
}
