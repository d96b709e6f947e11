import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Returns new UUIDs; a dependency so tests get predictable ones.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let id = uuid()
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// Creates a generator that calls `generate` for each UUID.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// Returns a new UUID.
  ///
  /// - Returns: The UUID.
  public func callAsFunction() -> UUID { generate() }

  /// Random UUIDs (version 4, from the system's secure random number generator).
  public static let live: UUIDGenerator = {
    let pool = RandomPool()
    return UUIDGenerator { UUID(random: pool.next()) }
  }()

  /// A generator that counts up from `00000000-0000-0000-0000-000000000000`, one per call.
  public static var incrementing: UUIDGenerator {
    let counter = Mutex<UInt64>(0)
    return UUIDGenerator {
      let value = counter.withLock { count in
        defer { count += 1 }
        return count
      }
      return UUID(counting: value)
    }
  }

  /// A generator that always returns `uuid`.
  ///
  /// - Parameter uuid: The fixed UUID.
  /// - Returns: The generator.
  public static func constant(_ uuid: UUID) -> UUIDGenerator { UUIDGenerator { uuid } }
}

extension UUID {
  /// The UUID whose last 12 hex digits spell `intValue`, for ids in tests: `UUID(0)` is
  /// `00000000-0000-0000-0000-000000000000`, the first id ``UUIDGenerator/incrementing`` makes,
  /// and `UUID(10)` is `00000000-0000-0000-0000-00000000000A`.
  ///
  /// - Parameter intValue: A number from 0 through 2⁴⁸ − 1.
  public init(_ intValue: Int) {
    precondition(
      (0...0xFFFF_FFFF_FFFF).contains(intValue),
      "UUID(_:) takes a number from 0 through 2^48 - 1 (12 hex digits); got \(intValue).")
    self.init(counting: UInt64(intValue))
  }

  /// The UUID whose last 12 hex digits spell `value`: `UUID(counting: 1)` is
  /// `00000000-0000-0000-0000-000000000001`.
  ///
  /// - Parameter value: The counter value (at most 48 bits are used).
  public init(counting value: UInt64) {
    let hex = String(value & 0xFFFF_FFFF_FFFF, radix: 16, uppercase: true)
    let padded = String(repeating: "0", count: 12 - hex.count) + hex
    // NB: the string is always a well-formed UUID, so this never falls back.
    self = UUID(uuidString: "00000000-0000-0000-0000-\(padded)") ?? UUID()
  }
}

/// Random bits from the system, fetched 256 bytes at a time.
///
/// NB: not `UUID()`, which on Linux opens, reads and closes `/dev/urandom` for every id, and not
/// a system call for each id either: an import of 100,000 links spent a tenth of its time
/// getting random bits. A process that forks without `exec` would share the bits left over; Swift
/// programs spawn processes with `exec`.
private final class RandomPool: Sendable {
  private let state = Mutex<(words: [UInt64], next: Int)>(([], 0))

  /// The next 128 random bits.
  func next() -> (UInt64, UInt64) {
    state.withLock { state in
      if state.next + 2 > state.words.count {
        state.words = Self.fetch()
        state.next = 0
      }
      defer { state.next += 2 }
      return (state.words[state.next], state.words[state.next + 1])
    }
  }

  /// 256 random bytes (as much as `getentropy` gives at once) from the system.
  private static func fetch() -> [UInt64] {
    var words = [UInt64](repeating: 0, count: 32)
    let status = words.withUnsafeMutableBytes { getentropy($0.baseAddress, $0.count) }
    if status != 0 {
      var generator = SystemRandomNumberGenerator()
      for index in words.indices { words[index] = generator.next() }
    }
    return words
  }
}

extension UUID {
  /// A version 4 (random) UUID from 128 random bits, six of which are replaced by the version
  /// and the variant.
  fileprivate init(random bits: (UInt64, UInt64)) {
    let high = bits.0 & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
    let low = bits.1 & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
    self = withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { bytes in
      UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
  }
}

extension UUIDGenerator: DependencyKey, TestPlaceholder {
  /// Random UUIDs.
  public static var liveValue: UUIDGenerator { .live }

  /// A generator that reports an issue and returns the zero UUID.
  ///
  /// - Parameter dependency: The dependency's name.
  /// - Returns: The placeholder.
  public static func placeholder(dependency: String) -> UUIDGenerator {
    UUIDGenerator(unimplemented("@Dependency(\\.uuid)", placeholder: UUID(counting: 0)))
  }

  /// Reports an issue when used: a test must choose its ids, with `.incrementing` say.
  public static var testValue: UUIDGenerator { placeholder(dependency: "uuid") }
}

extension DependencyValues {
  /// A generator of new UUIDs.
  ///
  /// Override it with `.incrementing` in tests.
  public var uuid: UUIDGenerator {
    get { self[UUIDGenerator.self] }
    set { self[UUIDGenerator.self] = newValue }
  }
}
