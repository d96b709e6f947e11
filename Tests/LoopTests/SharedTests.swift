import Foundation
import Loop
import Testing

struct SyncUp: Equatable, Identifiable, Sendable {
  let id: Int
  var title: String
  var minutes = 5
}

extension SharedKey where Self == InMemoryKey<Int>.Default {
  fileprivate static var startingAtThree: Self { Self[.inMemory("startingAtThree"), default: 3] }
}

@Suite struct SharedTests {
  // MARK: References

  @Test func aChangeThroughOneCopyIsSeenByTheOther() {
    let count = Shared(value: 0)
    let copy = count
    copy.withLock { $0 += 2 }
    #expect(count.wrappedValue == 2)
  }

  @Test func withLockReturnsWhatItsOperationReturned() {
    let count = Shared(value: 10)
    let old = count.withLock { value -> Int in
      defer { value = 11 }
      return value
    }
    #expect(old == 10)
    #expect(count.wrappedValue == 11)
  }

  @Test func aChangeMadeBeforeTheOperationThrewIsKept() {
    struct Stop: Error {}
    let count = Shared(value: 1)
    #expect(throws: Stop.self) {
      try count.withLock { value in
        value = 2
        throw Stop()
      }
    }
    #expect(count.wrappedValue == 2)
  }

  @Test func twoWrappedValuesAreEqualWhenTheirValuesAre() {
    #expect(Shared(value: 1) == Shared(value: 1))
    #expect(Shared(value: 1) != Shared(value: 2))
  }

  @Test func aSharedSendableValueIsSendable() async {
    let count = Shared(value: 0)
    await Task.detached { count.withLock { $0 += 1 } }.value
    #expect(count.wrappedValue == 1)
  }

  @Test func changesMadeAtOnceFromManyTasksAreAllKept() async {
    let count = Shared(value: 0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<1_000 { count.withLock { $0 += 1 } }
        }
      }
    }
    #expect(count.wrappedValue == 8_000)
  }

  // MARK: Projections

  @Test func aMemberProjectionChangesTheValueItCameFrom() {
    @Shared(value: SyncUp(id: 1, title: "Design")) var syncUp: SyncUp
    let title: Shared<String> = $syncUp.title
    title.withLock { $0 = "Engineering" }
    #expect(syncUp.title == "Engineering")
    #expect(title.wrappedValue == "Engineering")
  }

  @Test func anIdentifiedElementIsASharedOptional() {
    @Shared(value: [SyncUp(id: 1, title: "Design"), SyncUp(id: 2, title: "Sales")])
    var syncUps: IdentifiedArrayOf<SyncUp>
    let element: Shared<SyncUp?> = $syncUps[id: 2]
    element.withLock { $0?.title = "Marketing" }
    #expect(syncUps[id: 2]?.title == "Marketing")
    #expect($syncUps[id: 3].wrappedValue == nil)
  }

  @Test func unwrappingAnOptionalChangesTheElement() throws {
    @Shared(value: [SyncUp(id: 1, title: "Design")]) var syncUps: IdentifiedArrayOf<SyncUp>
    let syncUp = try #require(Shared($syncUps[id: 1]))
    syncUp.withLock { $0.minutes = 15 }
    #expect(syncUps[id: 1]?.minutes == 15)
    #expect(syncUp.wrappedValue.minutes == 15)
  }

  @Test func unwrappingNilGivesNil() {
    @Shared(value: [SyncUp(id: 1, title: "Design")]) var syncUps: IdentifiedArrayOf<SyncUp>
    #expect(Shared($syncUps[id: 2]) == nil)
  }

  @Test func anUnwrappedValueWhoseOptionalBecameNilKeepsItsLastValueAndReportsAChange() throws {
    @Shared(value: [SyncUp(id: 1, title: "Design")]) var syncUps: IdentifiedArrayOf<SyncUp>
    let syncUp = try #require(Shared($syncUps[id: 1]))
    $syncUps.withLock { _ = $0.remove(id: 1) }
    let issues = IssueCollector()
    withIssueReporter(issues) {
      syncUp.withLock { $0.title = "Gone" }
    }
    #expect(syncUp.wrappedValue.title == "Design")
    #expect(syncUps.isEmpty)
    #expect(
      issues.messages == [
        """
        A change to Shared<IdentifiedArray<Int, SyncUp>> through an unwrapped optional was \
        dropped: the optional is nil.

        To fix, check that the value is still there before changing it.
        """
      ])
  }

  // MARK: Keys

  @Test func declarationsWithOneKeyShareTheValueTheFirstStartedWith() {
    @Shared(.inMemory("shared-count")) var first = 1
    @Shared(.inMemory("shared-count")) var second = 7
    #expect(second == 1)
    $second.withLock { $0 = 5 }
    #expect(first == 5)
  }

  @Test func keysWithDifferentNamesKeepDifferentValues() {
    @Shared(.inMemory("apples")) var apples = 1
    @Shared(.inMemory("pears")) var pears = 2
    $apples.withLock { $0 = 10 }
    #expect(pears == 2)
  }

  @Test func aKeyWithADefaultIsDeclaredWithoutOne() {
    @Shared(.startingAtThree) var count
    #expect(count == 3)
    @Shared(.startingAtThree) var again = 100
    #expect(again == 3)
  }

  @Test func aDefaultGivenWithTheDeclarationWinsWhenItComesFirst() {
    @Shared(.startingAtThree) var count = 100
    @Shared(.startingAtThree) var again
    #expect(again == 100)
    #expect(count == 100)
  }

  @Test func anOptionalKeyStartsAsNil() {
    @Shared(.inMemory("user")) var user: String?
    #expect(user == nil)
    $user.withLock { $0 = "Blob" }
    @Shared(.inMemory("user")) var again: String?
    #expect(again == "Blob")
  }

  @Test func aKeyUsedWithAnotherValueTypeIsReportedAndGetsItsOwnValue() {
    @Shared(.inMemory("typed")) var number = 1
    let issues = IssueCollector()
    let text = withIssueReporter(issues) { Shared(wrappedValue: "one", .inMemory("typed")) }
    #expect(text.wrappedValue == "one")
    #expect(number == 1)
    #expect(
      issues.messages == [
        """
        Shared<String>(.inMemory("typed")) names a value of another type, 'Int'; this \
        declaration gets a value of its own.

        To fix, declare the key with one value type everywhere.
        """
      ])
  }

  // NB: these run in parallel, each in its own test, from the same key: each sees its own value.
  @Test(arguments: 1...3) func eachTestCaseStartsFromFreshStorage(_ increment: Int) {
    @Shared(.inMemory("fresh")) var count = 0
    $count.withLock { $0 += increment }
    #expect(count == increment)
  }

  @Test func anotherTestStartsFromFreshStorageToo() {
    @Shared(.inMemory("fresh")) var count = 0
    $count.withLock { $0 += 10 }
    #expect(count == 10)
  }

  // MARK: Diffs

  @Test func aSharedFieldShowsAsItsValueUnderItsDeclaredName() {
    struct State {
      @Shared(value: 1) var count: Int
      var name = "x"
    }
    #expect(
      Diff.dump(State()) == """
        SharedTests.State(
          count: 1,
          name: "x"
        )
        """)
  }
}
