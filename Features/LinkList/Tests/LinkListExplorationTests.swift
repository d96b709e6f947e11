import Categories
import CategoryClient
import Foundation
import LinkClient
import LinkList
import LoopTesting
import Synchronization
import TestSupport
import Testing

/// The link list's contract, checked after every step of generated sequences: every link the
/// screen shown lists is stored in the client, once, with its title.
@MainActor
@Suite struct LinkListExplorationTests {
  @Test func everyGeneratedSequenceListsOnlyStoredLinksOnTheScreenShown() async {
    let stored = StoredLinks()
    let result = await TestStore.explore(
      initialState: { LinkList.State() }, reducer: { LinkList() }, actions: Self.actions,
      runs: 20, steps: 15, invariantName: "isConsistent",
      invariant: { Self.isConsistent($0, stored: stored.snapshot) },
      withDependencies: {
        let fixture = Fixture()
        fixture.prepare(&$0)
        $0.linkClient = stored.tracking(fixture.linkClient)
        $0.categoryClient = stored.tracking(fixture.categoryClient, links: fixture.linkClient)
      })
    print("LinkList: \(result)")
  }

  /// What a person does: switches screens, adds, edits and deletes links, adds and deletes
  /// categories (confirming), opens a link, edits it from its detail, and closes what is shown.
  static var actions: ActionGenerator<LinkList.State, LinkList.Action> {
    ActionGenerator(
      .case { random, _ in
        .screenSelected(random.element(of: [.all, .search, .recent] as [LinkList.Screen]) ?? .all)
      },
      .always(.all(.onAppear)),
      .always(.categories(.onAppear)),
      .case(weight: 4) { random, state in .addLinkSubmitted(draft(&random, state)) },
      .element(of: \.all.rows, weight: 2) { row, _ in .deleteLinkSubmitted(row.id) },
      .element(of: \.all.rows) { row, _ in .linkSelected(row.id) },
      .case { random, state in
        guard let row = random.element(of: state.all.rows) else { return nil }
        return .updateLinkSubmitted(row.id, draft(&random, state))
      },
      .case(weight: 2) { random, _ in .categories(.addSubmitted(name: random.string(length: 1...5)))
      },
      .element(of: \.categories.rows) { row, _ in .categories(.deleteSubmitted(row.id)) },
      .case(weight: 2) { random, state in
        guard let alert = state.categories.destination?.alert,
          let answer = random.element(of: alert.buttons.compactMap(\.action.action))
        else { return nil }
        return .categories(.destination(.presented(.alert(answer))))
      },
      .case { _, state in
        state.destination?.detail?.link == nil
          ? nil : .destination(.presented(.detail(.editSubmitted)))
      },
      .case(weight: 2) { _, state in state.destination == nil ? nil : .destination(.dismiss) }
    )
  }

  /// A link as typed: a title, a URL (now and then not one), a category that exists, or none.
  static func draft(_ random: inout ExplorationRandom, _ state: LinkList.State) -> LinkDraft {
    LinkDraft(
      title: random.string(length: 0...6),
      url: random.chance(0.1) ? "not a url" : "https://example.com/\(random.int(in: 0...30))",
      categoryID: random.bool() ? random.element(of: state.categories.rows)?.id : nil)
  }

  /// The contract: the screen shown lists stored links only, each once, as stored (a screen
  /// not shown may be stale: it reloads when it is shown again); a presented detail shows a
  /// stored link (deleting it closes the detail).
  static func isConsistent(_ state: LinkList.State, stored: [Link.ID: Link]) -> Bool {
    let rows: [(id: Link.ID, title: String)] =
      switch state.screen {
      case .all: state.all.rows.map { ($0.id, $0.title) }
      case .search: state.search.rows.map { ($0.id, $0.title) }
      case .recent: state.recent.rows.map { ($0.id, $0.title) }
      }
    guard Set(rows.map(\.id)).count == rows.count else { return false }
    if let detail = state.destination?.detail, detail.link != nil,
      stored[detail.linkID] == nil
    {
      return false
    }
    return rows.allSatisfy { row in stored[row.id]?.title == row.title }
  }
}

/// The links the client stores, read back after every change the exploration made through it.
final class StoredLinks: Sendable {
  private let storage = Mutex<[Link.ID: Link]>([:])

  var snapshot: [Link.ID: Link] { storage.withLock { $0 } }

  private func refresh(from client: LinkClient) async {
    guard let links = try? await client.fetchLinks() else { return }
    storage.withLock { $0 = Dictionary(uniqueKeysWithValues: links.map { ($0.id, $0) }) }
  }

  /// `client`, reading what it stores after each change.
  func tracking(_ client: LinkClient) -> LinkClient {
    storage.withLock { $0 = [:] }
    var tracked = client
    tracked.addLink = { [self] draft in
      let link = try await client.addLink(draft)
      await refresh(from: client)
      return link
    }
    tracked.updateLink = { [self] id, draft in
      let link = try await client.updateLink(id, draft)
      await refresh(from: client)
      return link
    }
    tracked.deleteLink = { [self] id in
      try await client.deleteLink(id)
      await refresh(from: client)
    }
    return tracked
  }

  /// `client`, reading the links back after a category is deleted (its links lose it).
  func tracking(_ client: CategoryClient, links: LinkClient) -> CategoryClient {
    var tracked = client
    tracked.deleteCategory = { [self] id in
      try await client.deleteCategory(id)
      await refresh(from: links)
    }
    return tracked
  }
}
