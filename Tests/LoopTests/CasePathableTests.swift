import Loop
import Testing

/// `CasePathable`'s `[case:]` subscript: reads a case's payload, and changes it only in place.
@Suite struct CasePathableTests {
  enum Presented: Equatable, CasePathable {
    case alert(String)
    case count(Int)
  }

  @Test func readingACaseGivesItsPayloadOrNil() {
    let presented = Presented.count(1)
    #expect(presented[case: .case(Presented.count)] == 1)
    #expect(presented[case: .case(Presented.alert)] == nil)
  }

  @Test func settingTheCaseTheValueIsChangesItsPayload() {
    var presented = Presented.count(1)
    presented[case: .case(Presented.count)]? += 1
    #expect(presented == .count(2))
  }

  @Test func settingAnotherCaseChangesNothing() {
    var presented = Presented.alert("Failed")
    presented[case: .case(Presented.count)] = 5
    #expect(presented == .alert("Failed"))
  }

  @Test func settingNilChangesNothing() {
    var presented = Presented.count(3)
    presented[case: .case(Presented.count)] = nil
    #expect(presented == .count(3))
  }
}
