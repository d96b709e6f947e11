import Testing

@testable import Loop

/// `TypeMetadata.isStandardLibraryType(named:)`: a standard library type known by its
/// descriptor's name and module, in any generic instance, without instantiating one.
struct TypeMetadataTests {
  /// Types named as the standard library's, in this module.
  enum Result { case done }
  struct Array {}
  final class Set {}

  func isStandard(_ type: Any.Type, _ name: StaticString) -> Bool {
    TypeMetadata(type).isStandardLibraryType(named: name)
  }

  @Test func aStandardLibraryTypeIsKnownInEveryInstance() {
    #expect(isStandard(Swift.Result<Int, Never>.self, "Result"))
    #expect(
      isStandard(Swift.Result<String, any Error>.self, "Result"))
    #expect(isStandard([Int].self, "Array"))
    #expect(isStandard([String: [Int]].self, "Dictionary"))
    #expect(isStandard(Swift.Set<String>.self, "Set"))
    #expect(isStandard(AnyHashable.self, "AnyHashable"))
    #expect(isStandard(Int?.self, "Optional"))
  }

  @Test func anotherNameOrModuleOrKindIsNot() {
    #expect(!isStandard(Swift.Result<Int, Never>.self, "Resul"))
    #expect(!isStandard([Int].self, "ArrayX"))
    #expect(!isStandard(Result.self, "Result"))
    #expect(!isStandard(Array.self, "Array"))
    #expect(!isStandard(Set.self, "Set"))
    #expect(!isStandard((Int, Int).self, "Array"))
    #expect(!isStandard(((Int) -> Int).self, "Array"))
  }

  @Test func onlyAStructOrEnumWithoutImplicitUpcastsAcceptsOnlyItself() {
    #expect(acceptsOnlyItself(Int.self))
    #expect(acceptsOnlyItself(Result.self))
    #expect(acceptsOnlyItself(Array.self))
    #expect(!acceptsOnlyItself([Int].self))
    #expect(!acceptsOnlyItself([String: Int].self))
    #expect(!acceptsOnlyItself(Swift.Set<Int>.self))
    #expect(!acceptsOnlyItself(AnyHashable.self))
    #expect(!acceptsOnlyItself(Int?.self))
    #expect(!acceptsOnlyItself(Set.self))
  }
}
