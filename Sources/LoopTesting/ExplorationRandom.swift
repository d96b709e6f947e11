import Foundation

/// A deterministic random number generator (SplitMix64): the same seed gives the same numbers on
/// every machine and every run, so a randomized test, or an exploration, replays exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  /// The generator's state; each number advances it.
  public var state: UInt64

  /// Creates a generator from a seed.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next number.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The random source an action generator draws from during an exploration.
///
/// Every number it gives is recorded, so a step can be replayed, dropped, or simplified while
/// shrinking a failure: a simplified step draws zeros, which the helpers below turn into their
/// simplest value (the lower bound of a range, the shortest string, the first element). Draw
/// payloads through these helpers (or any API taking a `RandomNumberGenerator`) and never from
/// another source, or the exploration cannot replay its seed.
public struct ExplorationRandom: RandomNumberGenerator {
  private var replay: [UInt64]
  private var position = 0
  private var fresh: SeededRandom
  /// The numbers drawn so far, in order.
  private(set) var drawn: [UInt64] = []

  /// Creates a source that replays `replay`, then draws fresh numbers from `seed`.
  init(replaying replay: [UInt64] = [], seed: UInt64) {
    self.replay = replay
    self.fresh = SeededRandom(seed: seed)
  }

  /// The next number.
  public mutating func next() -> UInt64 {
    let value: UInt64
    if position < replay.count {
      value = replay[position]
      position += 1
    } else {
      value = fresh.next()
    }
    drawn.append(value)
    return value
  }

  /// An integer in `range`; the simplest is its lower bound.
  ///
  /// - Parameter range: The integers to draw from.
  /// - Returns: The integer.
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    let span = UInt64(range.upperBound - range.lowerBound) &+ 1
    let offset = span == 0 ? next() : next() % span
    return range.lowerBound &+ Int(truncatingIfNeeded: offset)
  }

  /// A Boolean; the simplest is `false`.
  ///
  /// - Returns: The Boolean.
  public mutating func bool() -> Bool { next() % 2 == 1 }

  /// Whether an event with `probability` (0 to 1) happens; the simplest is that it does not.
  ///
  /// - Parameter probability: The chance that it happens.
  /// - Returns: Whether it happens.
  public mutating func chance(_ probability: Double) -> Bool {
    Double(next() % 1_000_000) < probability * 1_000_000
  }

  /// An element of `elements`, or `nil` when it is empty; the simplest is the first.
  ///
  /// - Parameter elements: The elements to choose from.
  /// - Returns: The element.
  public mutating func element<C: Collection>(of elements: C) -> C.Element? {
    guard !elements.isEmpty else { return nil }
    let offset = int(in: 0...(elements.count - 1))
    return elements[elements.index(elements.startIndex, offsetBy: offset)]
  }

  /// A string of `length` characters from `alphabet`; the simplest is the shortest, of the
  /// alphabet's first character.
  ///
  /// - Parameters:
  ///   - length: How many characters it may have.
  ///   - alphabet: The characters to use.
  /// - Returns: The string.
  public mutating func string(
    length: ClosedRange<Int> = 1...8, from alphabet: String = "abcdefghijklmnopqrstuvwxyz"
  ) -> String {
    let characters = Array(alphabet)
    let count = int(in: length)
    return String((0..<count).map { _ in element(of: characters) ?? "a" })
  }

  /// A date within `days` days after `start`, on a whole minute; the simplest is `start`.
  ///
  /// - Parameters:
  ///   - start: The earliest date.
  ///   - days: How many days after `start` it may fall.
  /// - Returns: The date.
  public mutating func date(from start: Date, withinDays days: Int = 365) -> Date {
    start.addingTimeInterval(TimeInterval(int(in: 0...(max(days, 0) * 24 * 60)) * 60))
  }
}
