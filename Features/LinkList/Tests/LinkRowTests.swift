import Foundation
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

/// A row value of a screen that does not exist: the row works with any `LinkRowItem`.
private struct PlainRow: LinkRowItem {
  var id: Link.ID
  var title: String
  var isFavorite: Bool
}

@MainActor
@Suite struct LinkRowTests {
  @Test func favoriteSubmittedAsksTheHostToFlipTheFavoriteAndChangesNothing() async {
    let store = TestStore(
      initialState: PlainRow(id: id(1), title: "Swift", isFavorite: false)
    ) { LinkRow<PlainRow>() }
    await store.send(.favoriteSubmitted)
    await store.receive(.delegate(.setFavorite(true)))
    await store.finish()
  }

  @Test func favoriteSubmittedOnAFavoriteAsksToUnmarkIt() async {
    let store = TestStore(
      initialState: RecentLinks.Row(
        id: id(1), title: "Swift", url: seededURL(1), isFavorite: true,
        lastViewedDate: Fixture.start)
    ) { LinkRow<RecentLinks.Row>() }
    await store.send(.favoriteSubmitted)
    await store.receive(.delegate(.setFavorite(false)))
    await store.finish()
  }

  @Test func selectedAsksTheHostToOpenTheLink() async {
    let store = TestStore(
      initialState: AllLinks.Row(
        id: id(1), title: "Swift", url: seededURL(1).absoluteString, isFavorite: false,
        createdAt: Fixture.start, categoryName: nil)
    ) { LinkRow<AllLinks.Row>() }
    await store.send(.selected)
    await store.receive(.delegate(.open))
    await store.finish()
  }

  @Test func delegateActionsAreForTheHostAndChangeNothing() async {
    let store = TestStore(
      initialState: SearchLinks.Row(
        id: id(1), title: "Swift", url: seededURL(1), isFavorite: false,
        createdAt: Fixture.start, matchedRange: nil)
    ) { LinkRow<SearchLinks.Row>() }
    await store.send(.delegate(.open))
    await store.send(.delegate(.setFavorite(true)))
    await store.finish()
  }
}
