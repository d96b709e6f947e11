import Foundation

// The system dependencies: a clock, and the user's calendar, time zone and locale. Each test
// value reports an issue when used and then behaves like a fixed, harmless system (UTC,
// Gregorian, POSIX), so that a test states the environment it depends on.

private enum ContinuousClockKey: DependencyKey {
  static var liveValue: any Clock<Duration> { ContinuousClock() }
  static var testValue: any Clock<Duration> { UnimplementedClock() }
}

private enum CalendarKey: DependencyKey {
  static var liveValue: Calendar { .autoupdatingCurrent }
  static var testValue: Calendar {
    reportMissingTestValue("calendar")
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar
  }
}

private enum TimeZoneKey: DependencyKey {
  static var liveValue: TimeZone { .autoupdatingCurrent }
  static var testValue: TimeZone {
    reportMissingTestValue("timeZone")
    return TimeZone(identifier: "UTC") ?? .current
  }
}

private enum LocaleKey: DependencyKey {
  static var liveValue: Locale { .autoupdatingCurrent }
  static var testValue: Locale {
    reportMissingTestValue("locale")
    return Locale(identifier: "en_US_POSIX")
  }
}

private func reportMissingTestValue(_ name: String) {
  guard !DependencyValues.isOverriding else { return }
  reportIssue(
    """
    @Dependency(\\.\(name)) has no test value, and the test did not override it.

    To fix, override it in the test: 'withDependencies: { $0.\(name) = … }'.
    """)
}

extension DependencyValues {
  /// The clock effects sleep on.
  ///
  /// Tests use `TestClock` (from `LoopTesting`) to move time by hand.
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// The user's calendar.
  public var calendar: Calendar {
    get { self[CalendarKey.self] }
    set { self[CalendarKey.self] = newValue }
  }

  /// The user's time zone.
  public var timeZone: TimeZone {
    get { self[TimeZoneKey.self] }
    set { self[TimeZoneKey.self] = newValue }
  }

  /// The user's locale.
  public var locale: Locale {
    get { self[LocaleKey.self] }
    set { self[LocaleKey.self] = newValue }
  }
}

/// The clock a test gets when it did not choose one: every use reports an issue, and sleeping
/// throws, so a forgotten clock fails the test instead of waiting in real time.
struct UnimplementedClock: Clock {
  typealias Instant = OffsetInstant

  var now: Instant {
    reportMissingTestValue("continuousClock")
    return Instant(offset: .zero)
  }

  var minimumResolution: Duration { .zero }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    reportMissingTestValue("continuousClock")
    throw CancellationError()
  }
}

/// A moment of a clock that counts from its own start: the time since then.
///
/// NB: `package`, so the clocks of the packages' other modules (the REPL's recorded clock) use
/// it too; `TestClock.Instant` is public API and keeps its own name.
package struct OffsetInstant: InstantProtocol {
  /// The time since the clock started.
  package var offset: Duration

  /// The instant `offset` after the clock started.
  package init(offset: Duration) {
    self.offset = offset
  }

  package func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }

  package func duration(to other: Self) -> Duration { other.offset - offset }

  package static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
}
