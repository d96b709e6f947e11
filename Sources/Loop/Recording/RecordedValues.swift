import Foundation
import Synchronization

/// The values a recording's dependencies handed out, handed out again in the same order: what a
/// replay injects into the store it runs, so that it makes the same dates and ids.
///
/// ```swift
/// let values = RecordedValues(recording)
/// let store = Store(initialState: Counter.State()) { Counter() } withDependencies: {
///   $0.date = values.date
///   $0.uuid = values.uuid
/// }
/// ```
///
/// A replay that asks for more values of a name than the recording has gets a stand-in (the
/// last date, a counting UUID, `nil`) and the shortfall is kept in ``overdrawn``, which `replay`
/// reports as a divergence.
public final class RecordedValues: Sendable {
  private let state: Mutex<(queues: [String: ArraySlice<String>], overdrawn: [String])>

  /// Creates the values of `recording`.
  public init(_ recording: Recording) {
    var queues: [String: ArraySlice<String>] = [:]
    for case .value(let name, let value) in recording.entries {
      queues[name, default: []].append(value)
    }
    self.state = Mutex((queues, []))
  }

  /// The next value named `name`, or `nil` when the recording has no more.
  ///
  /// - Parameter name: The value's name.
  /// - Returns: The value's text.
  public func next(_ name: String) -> String? {
    state.withLock { state in
      if let value = state.queues[name]?.popFirst() { return value }
      state.overdrawn.append(name)
      return nil
    }
  }

  /// The names of the values asked for beyond the recording's, in the order asked.
  public var overdrawn: [String] { state.withLock { $0.overdrawn } }

  /// A date generator handing out the recorded `date` values.
  public var date: DateGenerator {
    DateGenerator { [self] in
      next("date").flatMap(Self.date(from:)) ?? Date(timeIntervalSinceReferenceDate: 0)
    }
  }

  /// A UUID generator handing out the recorded `uuid` values.
  public var uuid: UUIDGenerator {
    UUIDGenerator { [self] in next("uuid").flatMap(UUID.init(uuidString:)) ?? UUID(counting: 0) }
  }

  /// How a recording writes a date: ISO 8601 in UTC to read, then the seconds since 1970 exactly
  /// (the shortest decimal that reads back the same `Date`).
  package static func text(of date: Date) -> String {
    "\(date.formatted(Diff.Printer.iso8601)) \(date.timeIntervalSince1970)"
  }

  /// The date a recording wrote with ``text(of:)``.
  package static func date(from text: String) -> Date? {
    guard let seconds = text.split(separator: " ").last.flatMap({ Double($0) }) else {
      return nil
    }
    return Date(timeIntervalSince1970: seconds)
  }
}
