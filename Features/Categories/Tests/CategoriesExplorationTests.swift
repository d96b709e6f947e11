import Categories
import CategoryClient
import Foundation
import LinkClient
import LoopTesting
import Synchronization
import TestSupport
import Testing

/// The category list's contract, checked after every step of generated sequences: it lists the
/// stored categories, each once, with their names and link counts, and the selected category is
/// one of them.
@MainActor
@Suite struct CategoriesExplorationTests {
  @Test func everyGeneratedSequenceListsTheStoredCategoriesAndCounts() async {
    let stored = StoredSummaries()
    let result = await TestStore.explore(
      initialState: { Categories.State() }, reducer: { Categories() }, actions: Self.actions,
      runs: 30, steps: 15, invariantName: "isConsistent",
      invariant: { Self.isConsistent($0, stored: stored.snapshot) },
      withDependencies: {
        let fixture = Fixture()
        fixture.prepare(&$0)
        $0.categoryClient = stored.tracking(fixture.categoryClient)
      })
    print("Categories: \(result)")
  }

  /// What a person does: adds (names from a small set, so some repeat), renames, deletes
  /// (confirming or not), selects a category or none, and opens the list.
  static var actions: ActionGenerator<Categories.State, Categories.Action> {
    ActionGenerator(
      .always(.onAppear),
      .case(weight: 3) { random, _ in .addSubmitted(name: name(&random)) },
      .element(of: \.rows) { row, random in .renameSubmitted(row.id, name: name(&random)) },
      .element(of: \.rows, weight: 2) { row, _ in .deleteSubmitted(row.id) },
      .element(of: \.rows) { row, _ in .categorySelected(row.id) },
      .always(.categorySelected(nil)),
      .case(weight: 2) { random, state in
        guard let alert = state.destination?.alert,
          let answer = random.element(of: alert.buttons.compactMap(\.action.action))
        else { return nil }
        return .destination(.presented(.alert(answer)))
      },
      .case { _, state in state.destination == nil ? nil : .destination(.dismiss) }
    )
  }

  /// A name from a few, now and then blank.
  static func name(_ random: inout ExplorationRandom) -> String {
    random.element(of: ["Work", "Home", "Read", "", "work "]) ?? "Work"
  }

  /// The contract: the rows are the stored summaries, and the selection is among them.
  static func isConsistent(_ state: Categories.State, stored: [CategorySummary]?) -> Bool {
    guard let stored else { return state.rows.isEmpty }
    guard Array(state.rows) == stored else { return false }
    return state.selectedCategoryID.map { state.rows[id: $0] != nil } ?? true
  }
}

/// The category summaries the client stores, read back after every change made through it;
/// `nil` until the first change.
final class StoredSummaries: Sendable {
  private let storage = Mutex<[CategorySummary]?>(nil)

  var snapshot: [CategorySummary]? { storage.withLock { $0 } }

  private func refresh(from client: CategoryClient) async {
    guard let summaries = try? await client.fetchCategorySummaries() else { return }
    storage.withLock { $0 = summaries }
  }

  /// `client`, reading the summaries back after each change.
  func tracking(_ client: CategoryClient) -> CategoryClient {
    storage.withLock { $0 = nil }
    var tracked = client
    tracked.addCategory = { [self] name in
      let category = try await client.addCategory(name)
      await refresh(from: client)
      return category
    }
    tracked.updateCategory = { [self] id, name in
      let category = try await client.updateCategory(id, name)
      await refresh(from: client)
      return category
    }
    tracked.deleteCategory = { [self] id in
      try await client.deleteCategory(id)
      await refresh(from: client)
    }
    return tracked
  }
}
