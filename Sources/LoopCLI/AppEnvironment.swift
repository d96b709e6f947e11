import CategoryClient
import CategoryClientLive
import Foundation
import HabitClient
import HabitClientLive
import LedgerClient
import LedgerClientLive
import LinkClient
import LinkClientLive
import Loop
import Persistence

/// Everything the app's store depends on: a client per domain, the clock, ids, the calendar and
/// the time zone.
///
/// The app builds it with ``live(context:)`` over its one database; tests build it with
/// in-memory clients and fixed time.
public struct AppEnvironment: Sendable {
  /// The links' storage.
  public var linkClient: LinkClient
  /// The categories' storage.
  public var categoryClient: CategoryClient
  /// The habits' storage.
  public var habitClient: HabitClient
  /// The ledger's storage.
  public var ledgerClient: LedgerClient
  /// "Now".
  public var date: DateGenerator
  /// New ids.
  public var uuid: UUIDGenerator
  /// The user's calendar (its first weekday starts the heat map's weeks).
  public var calendar: Calendar
  /// The user's time zone: it decides which day an instant falls on, in input and output.
  public var timeZone: TimeZone
  /// The clock effects wait on.
  public var continuousClock: any Clock<Duration>

  /// An environment with these clients, time and ids.
  public init(
    linkClient: LinkClient, categoryClient: CategoryClient, habitClient: HabitClient,
    ledgerClient: LedgerClient, date: DateGenerator,
    uuid: UUIDGenerator, calendar: Calendar, timeZone: TimeZone,
    continuousClock: any Clock<Duration>
  ) {
    self.linkClient = linkClient
    self.categoryClient = categoryClient
    self.habitClient = habitClient
    self.ledgerClient = ledgerClient
    self.date = date
    self.uuid = uuid
    self.calendar = calendar
    self.timeZone = timeZone
    self.continuousClock = continuousClock
  }

  /// Every model the app stores, for opening its one container.
  public static let models: [any PersistentModel.Type] =
    LinkClient.models + HabitClient.models + LedgerClient.models

  /// The app's environment: every client over one context, the system's time, random ids, the
  /// user's calendar and time zone.
  ///
  /// - Parameter context: A context on a container opened with ``models``.
  /// - Returns: The environment.
  public static func live(context: ModelContext) -> AppEnvironment {
    AppEnvironment(
      linkClient: .live(context: context), categoryClient: .live(context: context),
      habitClient: .live(context: context), ledgerClient: .live(context: context), date: .live,
      uuid: .live, calendar: .autoupdatingCurrent, timeZone: .autoupdatingCurrent,
      continuousClock: ContinuousClock())
  }

  /// Puts the environment into a store's dependencies.
  func apply(to values: inout DependencyValues) {
    values.linkClient = linkClient
    values.categoryClient = categoryClient
    values.habitClient = habitClient
    values.ledgerClient = ledgerClient
    values.date = date
    values.uuid = uuid
    values.calendar = calendar
    values.timeZone = timeZone
    values.continuousClock = continuousClock
  }

  /// The calendar in the user's time zone: the one that turns days into instants and back.
  var zonedCalendar: Calendar {
    var calendar = calendar
    calendar.timeZone = timeZone
    return calendar
  }

  /// Today in the user's time zone.
  var today: Day { Day(date.now, in: timeZone) }

  /// The first instant of `day` in the user's time zone.
  func start(of day: Day) -> Date? {
    zonedCalendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
  }

  /// `date` as `YYYY-MM-DD HH:MM` in the user's time zone.
  func dateTime(_ date: Date) -> String {
    let parts = zonedCalendar.dateComponents([.hour, .minute], from: date)
    func two(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : "\(value)"
    }
    return "\(day(of: date)) \(two(parts.hour)):\(two(parts.minute))"
  }

  /// The day on which `date` falls in the user's time zone.
  func day(of date: Date) -> Day { Day(date, in: timeZone) }
}
