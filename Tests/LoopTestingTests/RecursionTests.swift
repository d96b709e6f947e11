import Foundation
import LoopTesting
import Testing

/// A tree of rows, each a list of rows like itself (TCA's "Recursion" case study), whose rows
/// can run a timer.
private struct Nested: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var name = ""
    var rows: IdentifiedArrayOf<State> = []
    var ticks = 0
  }

  indirect enum Action: Equatable {
    case addRowSubmitted
    case deleteSubmitted(IndexSet)
    case nameChanged(String)
    case rows(IdentifiedActionOf<Nested>)
    case ticked
    case timerStarted
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addRowSubmitted:
        state.rows.append(State(id: uuid()))
        return .none
      case .deleteSubmitted(let offsets):
        state.rows.remove(atOffsets: offsets)
        return .none
      case .nameChanged(let name):
        state.name = name
        return .none
      case .rows:
        return .none
      case .ticked:
        state.ticks += 1
        return .none
      case .timerStarted:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.ticked)
        }
        .cancellable(id: CancelID.timer)
      }
    }
    .forEach(\.rows, action: .case(Action.rows)) { Self() }
  }
}

@MainActor
@Suite struct RecursionTests {
  let clock = TestClock()

  private func makeStore(_ state: Nested.State) -> TestStore<Nested.State, Nested.Action> {
    TestStore(initialState: state) {
      Nested()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = clock
    }
  }

  /// A tree three levels deep: the root, a row, its row, and the row's row.
  private var threeLevels: Nested.State {
    Nested.State(
      id: UUID(100),
      rows: [
        Nested.State(
          id: UUID(10),
          rows: [Nested.State(id: UUID(11), rows: [Nested.State(id: UUID(12))])])
      ])
  }

  @Test func aRecursiveFeatureBuildsWithoutBuildingItsRows() async {
    let store = makeStore(Nested.State(id: UUID(100)))
    await store.send(.nameChanged("Root")) { $0.name = "Root" }
  }

  @Test func rowsAreAddedThreeLevelsDown() async {
    let store = makeStore(threeLevels)
    let row: CasePath<Nested.Action, IdentifiedActionOf<Nested>> = .case(Nested.Action.rows)
    await store.send(
      row.element(id: UUID(10)).appending(path: row.element(id: UUID(11)))
        .appending(path: row.element(id: UUID(12))),
      .addRowSubmitted
    ) {
      $0.rows[id: UUID(10)]?.rows[id: UUID(11)]?.rows[id: UUID(12)]?.rows = [
        Nested.State(id: UUID(0))
      ]
    }
  }

  @Test func aNestedRowIsRenamedInPlace() async {
    let store = makeStore(threeLevels)
    await store.send(
      .rows(
        .element(
          id: UUID(10),
          action: .rows(.element(id: UUID(11), action: .nameChanged("Grandchild")))))
    ) {
      $0.rows[id: UUID(10)]?.rows[id: UUID(11)]?.name = "Grandchild"
    }
  }

  @Test func aNestedRowIsRemoved() async {
    let store = makeStore(threeLevels)
    await store.send(.rows(.element(id: UUID(10), action: .deleteSubmitted([0])))) {
      $0.rows[id: UUID(10)]?.rows = []
    }
  }

  @Test func aNestedRowsTimerTicksWhileItIsThere() async {
    let store = makeStore(threeLevels)
    let deepest: Nested.Action = .rows(
      .element(
        id: UUID(10),
        action: .rows(
          .element(id: UUID(11), action: .rows(.element(id: UUID(12), action: .timerStarted))))))
    await store.send(deepest)
    await clock.advance(by: .seconds(1))
    await store.receive(
      .rows(
        .element(
          id: UUID(10),
          action: .rows(
            .element(id: UUID(11), action: .rows(.element(id: UUID(12), action: .ticked))))))
    ) {
      $0.rows[id: UUID(10)]?.rows[id: UUID(11)]?.rows[id: UUID(12)]?.ticks = 1
    }
  }

  @Test func removingARowCancelsTheEffectsOfItsNestedRows() async {
    let store = makeStore(threeLevels)
    await store.send(
      .rows(
        .element(
          id: UUID(10),
          action: .rows(
            .element(id: UUID(11), action: .rows(.element(id: UUID(12), action: .timerStarted))))))
    )
    await store.send(.deleteSubmitted([0])) { $0.rows = [] }
    await clock.advance(by: .seconds(1))
  }

  // MARK: TCA's RecursionTests, ported

  @Test func addRow() async {
    let store = makeStore(Nested.State(id: UUID(100)))
    await store.send(.addRowSubmitted) {
      $0.rows.append(Nested.State(id: UUID(0)))
    }
    let rows: CasePath<Nested.Action, IdentifiedActionOf<Nested>> = .case(Nested.Action.rows)
    await store.send(rows[id: UUID(0)], .addRowSubmitted) {
      $0.rows[id: UUID(0)]?.rows.append(Nested.State(id: UUID(1)))
    }
  }

  @Test func changeName() async {
    let store = makeStore(Nested.State(id: UUID(100)))
    await store.send(.nameChanged("Blob")) {
      $0.name = "Blob"
    }
  }

  @Test func deleteRow() async {
    let store = makeStore(
      Nested.State(
        id: UUID(100),
        rows: [
          Nested.State(id: UUID(0)), Nested.State(id: UUID(1)), Nested.State(id: UUID(2)),
        ]))
    await store.send(.deleteSubmitted(IndexSet(integer: 1))) {
      _ = $0.rows.remove(id: UUID(1))
    }
  }
}
