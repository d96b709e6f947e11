import Foundation

/// Returns the current date; a dependency so tests can fix it.
///
/// ```swift
/// @Dependency(\.date) var date
/// let createdAt = date.now
/// ```
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// Creates a generator that calls `generate` for each date.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date; setting it makes this generator return the set date from then on.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
  ///   $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
  /// }
  /// ```
  public var now: Date {
    get { generate() }
    set { self = .constant(newValue) }
  }

  /// Returns the current date.
  ///
  /// - Returns: The date.
  public func callAsFunction() -> Date { generate() }

  /// The system clock's date.
  public static let live = DateGenerator { Date() }

  /// A generator that always returns `date`.
  ///
  /// - Parameter date: The fixed date.
  /// - Returns: The generator.
  public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }
}

extension DateGenerator: DependencyKey, TestPlaceholder {
  /// The system date.
  public static var liveValue: DateGenerator { .live }

  /// A generator that reports an issue and returns the reference date 2001-01-01.
  ///
  /// - Parameter dependency: The dependency's name.
  /// - Returns: The placeholder.
  public static func placeholder(dependency: String) -> DateGenerator {
    DateGenerator(
      unimplemented("@Dependency(\\.date)", placeholder: Date(timeIntervalSinceReferenceDate: 0)))
  }

  /// Reports an issue when used: a test must fix the date.
  public static var testValue: DateGenerator { placeholder(dependency: "date") }
}

extension DependencyValues {
  /// The current date.
  ///
  /// Override it with `.constant(...)` in tests.
  public var date: DateGenerator {
    get { self[DateGenerator.self] }
    set { self[DateGenerator.self] = newValue }
  }
}
