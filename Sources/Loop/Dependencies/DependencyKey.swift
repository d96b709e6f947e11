/// A key for a dependency with the values tests and previews use, but no live value: what a
/// client's interface module declares, leaving the live value to the module that implements it.
///
/// A client split as isowords splits its clients declares the key in the interface module, which
/// imports neither storage nor network:
///
/// ```swift
/// // Module HabitClient: the struct of endpoints, its models and errors.
/// extension HabitClient: TestDependencyKey {
///   public static var testValue: HabitClient { HabitClient() }
/// }
/// extension DependencyValues {
///   public var habitClient: HabitClient {
///     get { self[HabitClient.self] }
///     set { self[HabitClient.self] = newValue }
///   }
/// }
///
/// // Module HabitClientLive: the implementation on storage.
/// extension HabitClient: DependencyKey {
///   public static let liveValue = HabitClient.live(path: ModelContainer.defaultFilePath())
/// }
/// ```
///
/// Features import the interface only. In a live context a key's live value is found at run
/// time, as the conformance to ``DependencyKey`` of the module that declares it, when the program
/// links that module (the app's composition imports it); a program that does not gets the test
/// value, and an issue saying the live module is missing.
public protocol TestDependencyKey {
  /// The dependency's type: the key itself, unless it says otherwise.
  // NB: the default is what a key whose test value is its placeholder's (and which declares
  // only `liveValue`) gets: inference reads only the requirements of the protocol that
  // declares `Value`, not `DependencyKey`'s `liveValue`.
  associatedtype Value: Sendable = Self

  /// The value used under test, unless the test overrides it.
  static var testValue: Value { get }

  /// The value used in previews and demos. Defaults to `testValue` (to `liveValue` for a key
  /// that declares both in one module, as a ``DependencyKey``).
  static var previewValue: Value { get }
}

extension TestDependencyKey {
  /// Defaults to the test value.
  public static var previewValue: Value { testValue }
}

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
///
/// The live value may be declared in another module than the test value: see
/// ``TestDependencyKey``.
public protocol DependencyKey: TestDependencyKey {
  /// The value used when the app runs.
  static var liveValue: Value { get }
}

extension DependencyKey {
  /// Defaults to the live value.
  public static var previewValue: Value { liveValue }
}

extension TestDependencyKey where Value: TestPlaceholder {
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
