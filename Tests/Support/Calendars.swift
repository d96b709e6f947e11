import Foundation

/// The time zone with an IANA identifier; the test stops when the system has no such zone.
public func zone(_ identifier: String) -> TimeZone {
  guard let zone = TimeZone(identifier: identifier) else {
    preconditionFailure("There is no time zone '\(identifier)' on this system: install tzdata.")
  }
  return zone
}

/// The Gregorian calendar in `timeZone`.
public func gregorian(_ timeZone: TimeZone) -> Calendar {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = timeZone
  return calendar
}

extension TimeZone {
  /// Coordinated Universal Time.
  public static let utc = zone("UTC")
  /// New York's time zone, behind UTC.
  public static let newYork = zone("America/New_York")
  /// Tokyo's time zone, ahead of UTC.
  public static let tokyo = zone("Asia/Tokyo")
}

extension Calendar {
  /// The Gregorian calendar in UTC with weeks starting on `firstWeekday` (1 is Sunday, 2
  /// Monday).
  public static func gregorian(firstWeekday: Int) -> Calendar {
    var calendar = TestSupport.gregorian(.utc)
    calendar.firstWeekday = firstWeekday
    return calendar
  }
}
