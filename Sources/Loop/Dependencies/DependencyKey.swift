/// A key for a dependency in `DependencyValues`, with the value to use live, in tests and in
/// previews.
///
/// ```swift
/// extension LinkClient: DependencyKey {
///   public static let liveValue = LinkClient.sqlite(path: defaultPath)
///   public static let testValue = LinkClient(fetchLinks: unimplemented("LinkClient.fetchLinks"))
/// }
/// extension DependencyValues {
///   public var linkClient: LinkClient {
///     get { self[LinkClient.self] }
///     set { self[LinkClient.self] = newValue }
///   }
/// }
/// ```
///
/// A key whose `Value` adopts `TestPlaceholder` may omit `testValue`: a test then gets the
/// placeholder, which reports an issue naming the dependency when used and does nothing harmful.
/// A test never reaches a live value.
public protocol DependencyKey {
  /// The dependency's type.
  associatedtype Value: Sendable

  /// The value used when the app runs.
  static var liveValue: Value { get }

  /// The value used under test, unless the test overrides it.
  static var testValue: Value { get }

  /// The value used in previews and demos. Defaults to `liveValue`.
  static var previewValue: Value { get }
}

extension DependencyKey {
  /// Defaults to the live value.
  public static var previewValue: Value { liveValue }
}

extension DependencyKey where Value: TestPlaceholder {
  /// A harmless placeholder that reports an issue naming the dependency whenever it is used.
  ///
  /// NB: reading it does not report, so a test can override one endpoint of a client
  /// (`$0.linkClient.fetchLinks = { … }`) without tripping over the others.
  public static var testValue: Value {
    Value.placeholder(dependency: dependencyName(Self.self))
  }
}

/// A value that can stand in, harmlessly, for a dependency a test forgot to override.
///
/// Clients adopt it by returning a value whose endpoints all report an issue and throw (see
/// `unimplemented(_:)`), so a forgotten override can never reach a real database.
public protocol TestPlaceholder {
  /// Returns a value that reports misuse instead of doing work.
  ///
  /// - Parameter dependency: The dependency's name, for the reports.
  /// - Returns: The placeholder.
  static func placeholder(dependency: String) -> Self
}

func dependencyName(_ key: Any.Type) -> String {
  String(describing: key)
}
