import Testing

@testable import Loop

/// `firstNested(in:isCandidate:find:)`: the first candidate inside the enum cases and tuples a
/// value is made of, as the REPL finds a response's failure inside an app's action.
@MainActor
struct NestedValueTests {
  struct Failure: Error, Equatable { var code: Int }
  struct Draft { var result: Result<Int, Failure> }

  enum Child {
    case saved(Result<Int, Failure>)
    case edited(Draft)
    case pair(id: Int, result: Result<Int, Failure>)
    indirect case nested(Child)
    case closed
  }

  enum Parent {
    case child(Child)
    case optional(Child?)
    case element(id: Int, action: Child)
    case count(Int)
  }

  /// The failure inside `value`, as the REPL's answer tap looks for one.
  func failure<Root>(in value: Root) -> Failure? {
    firstNested(
      in: value, isCandidate: { $0 == Result<Int, Failure>.self },
      find: { value -> Failure? in
        guard case .failure(let failure) = value as? Result<Int, Failure> else { return nil }
        return failure
      })
  }

  @Test func aFailureTwoCasesDownIsFound() {
    #expect(failure(in: Parent.child(.saved(.failure(Failure(code: 1))))) == Failure(code: 1))
  }

  @Test func aSuccessIsNoFailure() {
    #expect(failure(in: Parent.child(.saved(.success(7)))) == nil)
  }

  @Test func aFailureInsideATupleOrAnOptionalOrAnIndirectCaseIsFound() {
    let failed = Result<Int, Failure>.failure(Failure(code: 2))
    #expect(failure(in: Parent.child(.pair(id: 1, result: failed))) == Failure(code: 2))
    #expect(failure(in: Parent.optional(.saved(failed))) == Failure(code: 2))
    #expect(failure(in: Parent.element(id: 3, action: .nested(.saved(failed)))) == Failure(code: 2))
  }

  @Test func aStructIsNeverLookedInto() {
    let draft = Draft(result: .failure(Failure(code: 3)))
    #expect(failure(in: Parent.child(.edited(draft))) == nil)
  }

  @Test func casesWithoutACandidateFindNothing() {
    #expect(failure(in: Parent.child(.closed)) == nil)
    #expect(failure(in: Parent.optional(nil)) == nil)
    #expect(failure(in: Parent.count(4)) == nil)
  }

  /// A feature that holds its parent's action, as a tree of screens does: sorting it meets a
  /// type still being sorted.
  enum Screen {
    case child(Row)
    case saved(Result<Int, Failure>)
  }

  enum Row {
    indirect case screen(Screen)
    case tapped
  }

  @Test func aSearchKeptForManyValuesFindsTheFailureInEach() {
    let search = NestedSearch(isCandidate: { $0 == Result<Int, Failure>.self })
    let find = { (value: Any) -> Failure? in
      guard case .failure(let failure) = value as? Result<Int, Failure> else { return nil }
      return failure
    }
    #expect(search.first(in: Parent.count(4), find: find) == nil)
    #expect(search.first(in: Parent.child(.closed), find: find) == nil)
    #expect(
      search.first(in: Parent.child(.saved(.failure(Failure(code: 5)))), find: find)
        == Failure(code: 5))
    #expect(
      search.first(
        in: Parent.element(id: 1, action: .nested(.saved(.failure(Failure(code: 6))))), find: find)
        == Failure(code: 6))
  }

  @Test func aTypeThatHoldsOneBeingSortedIsStillLookedInto() {
    let search = NestedSearch(isCandidate: { $0 == Result<Int, Failure>.self })
    let find = { (value: Any) -> Failure? in
      guard case .failure(let failure) = value as? Result<Int, Failure> else { return nil }
      return failure
    }
    let failed = Row.screen(.child(.screen(.saved(.failure(Failure(code: 7))))))
    // NB: sorting `Screen` sorts `Row`, which holds a failure only through `Screen`.
    #expect(search.first(in: Screen.saved(.success(1)), find: find) == nil)
    #expect(search.first(in: failed, find: find) == Failure(code: 7))
    #expect(search.first(in: Screen.child(failed), find: find) == Failure(code: 7))
  }

  /// `NestedSearch.resultFailures()`: the failure of any `Result`, the REPL's answer tap.
  enum Response {
    case saved(Result<Int, Failure>)
    case opened(Result<Item, ItemFailure>)
    case loaded(Result<String, any Error>)
    case retried(Result<Result<Int, Failure>, ItemFailure>)
    case rejected(Failure)
    indirect case nested(Response)
  }

  /// A class, so that a `Result` of two of them keeps its tag in the pointers' spare bits.
  final class Item: Sendable {}
  final class ItemFailure: Error {
    let code: Int
    init(code: Int) { self.code = code }
  }

  func resultFailure(in response: Response, search: NestedSearch = .resultFailures()) -> Int? {
    search.first(in: response) { value -> Int? in
      switch value {
      case let failure as Failure: failure.code
      case let failure as ItemFailure: failure.code
      default: nil
      }
    }
  }

  @Test func aResultFailuresSearchFindsTheFailureOfAResultOfAnyTypes() {
    let search = NestedSearch.resultFailures()
    #expect(resultFailure(in: .saved(.failure(Failure(code: 1))), search: search) == 1)
    #expect(resultFailure(in: .opened(.failure(ItemFailure(code: 2))), search: search) == 2)
    #expect(resultFailure(in: .loaded(.failure(Failure(code: 3))), search: search) == 3)
    #expect(
      resultFailure(in: .nested(.nested(.saved(.failure(Failure(code: 4))))), search: search) == 4)
  }

  @Test func aResultFailuresSearchPassesBySuccesses() {
    let search = NestedSearch.resultFailures()
    #expect(resultFailure(in: .saved(.success(1)), search: search) == nil)
    #expect(resultFailure(in: .opened(.success(Item())), search: search) == nil)
    #expect(resultFailure(in: .loaded(.success("text")), search: search) == nil)
    #expect(resultFailure(in: .nested(.saved(.success(2))), search: search) == nil)
  }

  @Test func aResultFailuresSearchLooksIntoASuccessForAnInnerResult() {
    #expect(resultFailure(in: .retried(.success(.failure(Failure(code: 5))))) == 5)
    #expect(resultFailure(in: .retried(.failure(ItemFailure(code: 6)))) == 6)
    #expect(resultFailure(in: .retried(.success(.success(7)))) == nil)
  }

  @Test func anErrorOutsideAResultIsNoFailureToAResultFailuresSearch() {
    #expect(resultFailure(in: .rejected(Failure(code: 8))) == nil)
  }
}
