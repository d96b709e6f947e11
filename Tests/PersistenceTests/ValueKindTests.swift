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
}
