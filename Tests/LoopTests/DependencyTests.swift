import Foundation
import Loop
import Testing

private struct NumberClient: Sendable {
  var next: @Sendable () async throws -> Int
  var name: @Sendable () -> String
}

extension NumberClient: DependencyKey, TestPlaceholder {
  static let liveValue = NumberClient(next: { 1 }, name: { "live" })
  static func placeholder(dependency: String) -> NumberClient {
    NumberClient(
      next: unimplemented("NumberClient.next"),
      name: unimplemented("NumberClient.name", placeholder: "placeholder"))
  }
}

extension DependencyValues {
  fileprivate var numbers: NumberClient {
    get { self[NumberClient.self] }
    set { self[NumberClient.self] = newValue }
  }
}

private struct Feature: Reducer {
  @Dependency(\.numbers) var numbers
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout [String], action: String) -> Effect<String> {
    state.append(action)
    switch action {
    case "stamp":
      state.append("\(date.now.timeIntervalSince1970) \(uuid().uuidString)")
      return .none
    case "fetch":
      return .run { send in await send("got \(try await numbers.next())") }
    default:
      return .none
    }
  }
}

/// A client split as isowords splits its clients: the interface declares the test value, and
/// (below, as a live module would) a separate extension adds the live value.
private struct GreetingClient: Sendable {
  var greet: @Sendable () -> String
}

extension GreetingClient: TestDependencyKey {
  static var testValue: GreetingClient { GreetingClient(greet: { "test" }) }
}

extension GreetingClient: DependencyKey {
  static let liveValue = GreetingClient(greet: { "live" })
}

/// An interface whose live module is not linked: only a test value exists.
private struct FarewellClient: Sendable {
  var farewell: @Sendable () -> String
}

extension FarewellClient: TestDependencyKey {
  static var testValue: FarewellClient { FarewellClient(farewell: { "test" }) }
}

extension DependencyValues {
  fileprivate var greeting: GreetingClient {
    get { self[GreetingClient.self] }
    set { self[GreetingClient.self] = newValue }
  }

  fileprivate var farewell: FarewellClient {
    get { self[FarewellClient.self] }
    set { self[FarewellClient.self] = newValue }
  }
}

/// A state that stamps itself with the injected date and id when it is created.
private struct Stamp: Equatable {
  let id: UUID
  let createdAt: Date

  init() {
    @Dependency(\.uuid) var uuid
    @Dependency(\.date) var date
    self.id = uuid()
    self.createdAt = date.now
  }
}

@MainActor
@Suite struct DependencyTests {
  @Test func aStoresInitialStateIsBuiltWithItsDependencies() {
    let issues = IssueCollector()
    let store = withIssueReporter(issues) {
      Store(initialState: Stamp()) {
        EmptyReducer<Stamp, Never>()
      } withDependencies: {
        $0.uuid = .incrementing
        $0.date.now = Date(timeIntervalSince1970: 42)
      }
    }
    #expect(issues.messages.isEmpty)
    #expect(store.state.id == UUID(0))
    #expect(store.state.createdAt == Date(timeIntervalSince1970: 42))
  }

  @Test func settingTheDatesNowFixesIt() {
    var dependencies = DependencyValues(context: .test)
    dependencies.date.now = Date(timeIntervalSince1970: 7)
    #expect(dependencies.date.now == Date(timeIntervalSince1970: 7))
    #expect(dependencies.date() == Date(timeIntervalSince1970: 7))
  }

  @Test func uuidsForTestsCountLikeTheIncrementingGenerator() {
    let generator = UUIDGenerator.incrementing
    #expect(generator() == UUID(0))
    #expect(generator() == UUID(1))
    #expect(UUID(10).uuidString == "00000000-0000-0000-0000-00000000000A")
    #expect(UUID(0xFFFF_FFFF_FFFF).uuidString == "00000000-0000-0000-0000-FFFFFFFFFFFF")
  }

  @Test func storeOverridesReachTheReducer() {
    let store = Store(initialState: [String]()) {
      Feature()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 42))
      $0.uuid = .incrementing
    }
    store.send("stamp")
    store.send("stamp")
    #expect(
      store.state == [
        "stamp", "42.0 00000000-0000-0000-0000-000000000000",
        "stamp", "42.0 00000000-0000-0000-0000-000000000001",
      ])
  }

  @Test func storeOverridesReachEffects() async {
    let store = Store(initialState: [String]()) {
      Feature()
    } withDependencies: {
      $0.numbers.next = { 7 }
    }
    await store.send("fetch").finish()
    #expect(store.state == ["fetch", "got 7"])
  }

  @Test func withDependenciesReachesTasksStartedInside() async {
    let value = await withDependencies {
      $0.numbers.name = { "overridden" }
    } operation: {
      await Task {
        @Dependency(\.numbers) var numbers
        return numbers.name()
      }.value
    }
    #expect(value == "overridden")
  }

  @Test func aTestUsesTheTestContext() {
    #expect(DependencyValues.currentValues.context == .test)
  }

  @Test func aDependencyWithoutATestValueReportsItsName() {
    let issues = IssueCollector()
    let name = withIssueReporter(issues) {
      @Dependency(\.numbers) var numbers
      return numbers.name()
    }
    #expect(name == "placeholder")
    #expect(
      issues.messages == [
        """
        Unimplemented: 'NumberClient.name' was called.

        To fix, override this endpoint in the test's dependencies, e.g. 'withDependencies: { \
        $0.… = … }', with the behaviour the test expects.
        """
      ])
  }

  @Test func overridingOneEndpointDoesNotReport() {
    let issues = IssueCollector()
    withIssueReporter(issues) {
      withDependencies {
        $0.numbers.next = { 3 }
      } operation: {
        @Dependency(\.numbers) var numbers
        _ = numbers
      }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func anUnimplementedThrowingEndpointReportsAndThrows() async {
    let issues = IssueCollector()
    let next: @Sendable () async throws -> Int = unimplemented("NumberClient.next")
    await withIssueReporter(issues) {
      await #expect(throws: UnimplementedError(endpoint: "NumberClient.next")) {
        try await next()
      }
    }
    #expect(
      issues.messages.first?.hasPrefix("Unimplemented: 'NumberClient.next' was called.") == true)
  }

  @Test func builtInTestValuesReportWhenUsed() {
    let issues = IssueCollector()
    withIssueReporter(issues) {
      @Dependency(\.date) var date
      @Dependency(\.uuid) var uuid
      @Dependency(\.calendar) var calendar
      @Dependency(\.timeZone) var timeZone
      @Dependency(\.locale) var locale
      #expect(date.now == Date(timeIntervalSinceReferenceDate: 0))
      #expect(uuid() == UUID(counting: 0))
      #expect(calendar.timeZone.secondsFromGMT() == 0)
      #expect(timeZone.secondsFromGMT() == 0)
      #expect(locale.identifier == "en_US_POSIX")
    }
    #expect(
      issues.messages.map { $0.prefix { $0 != "\n" } } == [
        "Unimplemented: '@Dependency(\\.date)' was called.",
        "Unimplemented: '@Dependency(\\.uuid)' was called.",
        "@Dependency(\\.calendar) has no test value, and the test did not override it.",
        "@Dependency(\\.timeZone) has no test value, and the test did not override it.",
        "@Dependency(\\.locale) has no test value, and the test did not override it.",
      ])
  }

  @Test func theUnimplementedClockReportsAndDoesNotSleep() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      @Dependency(\.continuousClock) var clock
      await #expect(throws: CancellationError.self) {
        try await clock.sleep(for: .seconds(60))
      }
    }
    #expect(
      issues.messages.first?.hasPrefix(
        "@Dependency(\\.continuousClock) has no test value") == true)
  }

  @Test func liveContextUsesLiveValuesOnce() {
    withDependencies {
      $0 = DependencyValues(context: .live)
    } operation: {
      @Dependency(\.numbers) var numbers
      #expect(numbers.name() == "live")
    }
  }

  @Test func aKeyWhoseLiveValueIsDeclaredApartGivesItInALiveContext() {
    withDependencies {
      $0 = DependencyValues(context: .live)
    } operation: {
      @Dependency(\.greeting) var greeting
      #expect(greeting.greet() == "live")
    }
  }

  @Test func aKeyWithALiveValueDeclaredApartGivesItsTestValueInATest() {
    @Dependency(\.greeting) var greeting
    #expect(greeting.greet() == "test")
  }

  @Test func aTestDependencyKeyPreviewsItsTestValue() {
    withDependencies {
      $0 = DependencyValues(context: .preview)
    } operation: {
      @Dependency(\.farewell) var farewell
      #expect(farewell.farewell() == "test")
    }
  }

  @Test func aKeyWithoutALiveValueReportsInALiveContextAndGivesItsTestValue() {
    let issues = IssueCollector()
    let farewell = withIssueReporter(issues) {
      withDependencies {
        $0 = DependencyValues(context: .live)
      } operation: {
        @Dependency(\.farewell) var farewell
        return farewell.farewell()
      }
    }
    #expect(farewell == "test")
    #expect(
      issues.messages == [
        """
        'FarewellClient' has no live value, but was read in a live context: its conformance to \
        DependencyKey (in the client's live module) is not linked into this program. Its test \
        value is used instead.

        To fix, import the live module where the app is composed, or override the dependency.
        """
      ])
  }

  @Test func incrementingUUIDsCountUp() {
    let uuid = UUIDGenerator.incrementing
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(UUID(counting: 255).uuidString == "00000000-0000-0000-0000-0000000000FF")
  }

  @Test func liveUUIDsAreRandomVersion4UUIDs() {
    let uuids = (0..<1_000).map { _ in UUIDGenerator.live() }
    #expect(Set(uuids).count == uuids.count)
    for uuid in uuids {
      // The version (4) is the digit after the second dash, the variant (8 to B) the first
      // digit after the third.
      let digits = Array(uuid.uuidString)
      #expect(digits[14] == "4", "\(uuid)")
      #expect("89AB".contains(digits[19]), "\(uuid)")
    }
    // Every other digit takes every value somewhere: the bits are random, not fixed.
    for position in Array(0..<36) where ![8, 13, 14, 18, 19, 23].contains(position) {
      #expect(
        Set(uuids.map { Array($0.uuidString)[position] }).count == 16, "digit \(position)")
    }
  }
}
