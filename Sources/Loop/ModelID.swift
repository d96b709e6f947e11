import Foundation

/// The identifier of a model: a UUID typed by the model it identifies.
///
/// Every model with a UUID identity declares its id as one (`typealias ID = ModelID<Link>`), so
/// ids of different models are different types and one cannot be passed where another is
/// expected:
///
/// ```swift
/// public struct Habit: Identifiable, Sendable {
///   public typealias ID = ModelID<Habit>
///   public var id: ID
///   …
/// }
/// let id = Habit.ID(uuid())
/// ```
///
/// It sorts as the UUID does (the deterministic last tie-breaker of every ordered list), prints
/// and encodes to JSON as the UUID string; Persistence stores it as the UUID's 16 bytes.
///
/// NB: in Loop, not Persistence, so that a client's interface module (its models, errors and
/// endpoints) names its ids without importing the storage its live module uses.
public struct ModelID<Model>: RawRepresentable, Hashable, Comparable, Sendable,
  CustomStringConvertible
{
  /// The UUID.
  public var rawValue: UUID

  /// Creates an id from its UUID.
  public init(rawValue: UUID) {
    self.rawValue = rawValue
  }

  /// Creates an id from its UUID.
  public init(_ rawValue: UUID) {
    self.rawValue = rawValue
  }

  /// Creates an id from a UUID string such as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
  ///
  /// - Parameter uuidString: The UUID, in any letter case.
  public init?(uuidString: String) {
    guard let uuid = UUID(uuidString: uuidString) else { return nil }
    self.rawValue = uuid
  }

  /// Whether `lhs` sorts before `rhs`: the order of their UUIDs.
  ///
  /// - Parameters:
  ///   - lhs: An id.
  ///   - rhs: Another id.
  /// - Returns: `true` when `lhs`'s UUID is smaller.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Hashes the id's 16 bytes, as two words.
  ///
  /// NB: not as `UUID` hashes itself (its bytes through `Hasher.combine(bytes:)`, which costs
  /// more than two words): ids key dictionaries, and `link list` hashes each of 200,000 ids
  /// about three times.
  public func hash(into hasher: inout Hasher) {
    withUnsafeBytes(of: rawValue.uuid) { bytes in
      hasher.combine(bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
      hasher.combine(bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }
  }

  /// The UUID string.
  public var description: String { rawValue.uuidString }
}

extension ModelID: Codable {
  /// Decodes an id from a UUID string.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when the value is not a UUID string.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(UUID.self))
  }

  /// Encodes the id as its UUID string.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

extension ModelID: CustomDiffTypeName {
  /// The name the model declares the id under, such as `Habit.ID`, for diffs and state dumps.
  public static var diffTypeName: String { "\(Model.self).ID" }
}
