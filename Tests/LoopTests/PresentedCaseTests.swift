import Testing

@testable import Loop

/// `presentedCase(of:)`, which names the presented child's effects on every action, reads a case
/// through the enum's layout: it must name the case and read the id as `Mirror` does.
@Suite struct PresentedCaseTests {
  struct Item: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  final class Box: Identifiable, Sendable {
    let id: String
    init(id: String) { self.id = id }
  }

  indirect enum Destination: Sendable {
    case alert(String)
    case detail(Item)
    case shared(Box)
    case pair(Item, Int)
    case nested(Destination)
    case empty
    case other
  }

  enum Single: Sendable {
    case only(Item)
  }

  static let values: [Destination] = [
    .alert("Gone"), .detail(Item(id: 7, title: "Swift")), .shared(Box(id: "b")),
    .pair(Item(id: 1, title: "one"), 2), .nested(.detail(Item(id: 3, title: "x"))), .empty, .other,
  ]

  @Test(arguments: values)
  func aCaseIsNamedAndItsIdentifiablePayloadIdentifiedAsMirrorDoes(_ value: Destination) {
    let read = presentedCase(of: value)
    let reflected = enumCase(of: value as Any)
    #expect(read?.name == reflected?.name)
    #expect(read?.payloadID == reflected?.payloadID)
  }

  @Test func theIDsReadAreThePayloadsOwn() {
    let detail = Destination.detail(Item(id: 7, title: "Swift"))
    #expect(presentedCase(of: detail)?.payloadID == AnyHashable(7))
    #expect(presentedCase(of: Destination.shared(Box(id: "b")))?.payloadID == AnyHashable("b"))
    #expect(presentedCase(of: Destination.alert("Gone"))?.payloadID == nil)
    #expect(presentedCase(of: Single.only(Item(id: 4, title: "a")))?.name == "only")
    #expect(presentedCase(of: Single.only(Item(id: 4, title: "a")))?.payloadID == AnyHashable(4))
  }

  @Test func aValueThatIsNotAnEnumHasNoCase() {
    #expect(presentedCase(of: Item(id: 1, title: "a")) == nil)
  }
}
