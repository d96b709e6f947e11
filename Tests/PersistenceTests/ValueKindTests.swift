import Foundation
import Loop
import Testing

@testable import Persistence

/// A column's kind comes from its Swift type, seen through `Optional` and raw values.
@Suite struct ValueKindTests {
  private struct Owner {}

  @Test func theCommonTypesHaveTheKindsTheirNamesSay() {
    #expect(ValueKind(of: String.self) == .text)
    #expect(ValueKind(of: Int.self) == .integer)
    #expect(ValueKind(of: Double.self) == .real)
    #expect(ValueKind(of: Data.self) == .blob)
    #expect(ValueKind(of: UUID.self) == .uuid)
    #expect(ValueKind(of: Bool.self) == .boolean)
    #expect(ValueKind(of: Date.self) == .date)
  }

  @Test func optionalsAndRawValuesHaveTheKindOfWhatTheyWrap() {
    #expect(ValueKind(of: UUID?.self) == .uuid)
    #expect(ValueKind(of: ModelID<Owner>.self) == .uuid)
    #expect(ValueKind(of: ModelID<Owner>?.self) == .uuid)
    #expect(ValueKind(of: Bool?.self) == .boolean)
    #expect(ValueKind(of: Date?.self) == .date)
    #expect(ValueKind(of: Int?.self) == .integer)
    #expect(ValueKind(of: String?.self) == .text)
    #expect(ValueKind(of: Kind.self) == .text)
  }

  /// A `RawRepresentable` that stores its raw `Bool` another way: as the text "yes" or "no".
  private struct Answer: RawRepresentable, ColumnValue {
    var rawValue: Bool
    static var columnType: ColumnType { .text }
    init(rawValue: Bool) { self.rawValue = rawValue }
    func encodeColumn() -> SQLValue { .text(rawValue ? "yes" : "no") }
    init(decodingColumn value: SQLValue) throws {
      self.init(rawValue: try String(decodingColumn: value) == "yes")
    }
  }

  @Test func theStoredTypeSeesThroughOptionalsAndRawValues() {
    #expect(ModelID<Owner>.storedType == UUID.self)
    #expect(ModelID<Owner>?.storedType == UUID.self)
    #expect(Date?.storedType == Date.self)
    #expect(Kind?.storedType == String.self)
    #expect(Int.storedType == Int.self)
  }

  @Test func aRawValueStoredAnotherWayIsItsOwnStoredTypeAndKind() {
    #expect(Answer.storedType == Answer.self)
    #expect(Answer?.storedType == Answer.self)
    #expect(ValueKind(of: Answer.self) == .text)
    #expect(ValueKind(of: Answer?.self) == .text)
  }
}
