import Foundation
import Interchange
import LoopTesting
import TestSupport
import Testing

@Suite struct TimestampTests {
  @Test(arguments: [
    (0.0, "2001-01-01T00:00:00Z"), (763_722_000, "2025-03-15T09:00:00Z"),
    (763_722_000.5, "2025-03-15T09:00:00.5Z"), (763_722_000.125, "2025-03-15T09:00:00.125Z"),
    (-978_307_200, "1970-01-01T00:00:00Z"), (-978_307_201, "1969-12-31T23:59:59Z"),
  ])
  func writesUTCWithTheFewestFractionDigits(_ interval: Double, _ text: String) {
    let date = Date(timeIntervalSinceReferenceDate: interval)
    #expect(Timestamp.string(from: date) == text)
    #expect(Timestamp.date(from: text) == date)
  }

  @Test func everyDateReadsBackExactly() {
    var generator = SplitMix64(seed: 42)
    for _ in 0..<2_000 {
      let interval =
        Double(generator.next() % 2_000_000_000) - 1_000_000_000
        + Double(generator.next() % 1_000_000_000) / 1_000_000_000
      let date = Date(timeIntervalSinceReferenceDate: interval)
      let text = Timestamp.string(from: date)
      #expect(Timestamp.date(from: text) == date, "\(interval) → \(text)")
    }
    let now = Date(timeIntervalSinceReferenceDate: 763_722_000.123_456_789_1)
    #expect(Timestamp.date(from: Timestamp.string(from: now)) == now)
  }

  @Test(arguments: [
    ("2025-03-15", "2025-03-15T00:00:00Z"), ("2025-03-15T10:00", "2025-03-15T10:00:00Z"),
    ("2025-03-15 10:00:00", "2025-03-15T10:00:00Z"),
    ("2025-03-15T10:00:00+09:00", "2025-03-15T01:00:00Z"),
    ("2025-03-15T10:00:00-0530", "2025-03-15T15:30:00Z"),
    ("2025-03-15T10:00:00-05", "2025-03-15T15:00:00Z"),
    ("2025-03-15T10:00:00,25z", "2025-03-15T10:00:00.25Z"),
  ])
  func readsTheCommonISO8601Forms(_ text: String, _ utc: String) {
    #expect(Timestamp.date(from: text).map(Timestamp.string(from:)) == utc)
  }

  @Test(arguments: [
    "", "yesterday", "2025-3-15", "2025-02-29", "2025-13-01", "2025-03-15T24:00",
    "2025-03-15T10", "2025-03-15T10:00:00.", "2025-03-15T10:00:00Zjunk", "15.03.2025",
  ])
  func refusesWhatIsNotADate(_ text: String) {
    #expect(Timestamp.date(from: text) == nil)
  }
}
