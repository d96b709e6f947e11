import Foundation
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

import struct LinkClient.Comment

@MainActor
@Suite struct LinkDetailTests {
  let fixture = Fixture()

  func makeStore(_ state: LinkDetail.State) -> TestStore<LinkDetail.State, LinkDetail.Action> {
    TestStore(initialState: state) {
      LinkDetail()
    } withDependencies: {
      fixture.prepare(&$0)
    }
  }

  /// Link "Swift" (0) with comments "first" (1) and "second" (2); then the date moves on a
  /// minute.
  func seed() async throws -> (Link, [Comment]) {
    let link = try await fixture.seedLinks(["Swift"])[0]
    let comments = try await fixture.seed { _, links in
      [try await links.addComment(link.id, "first"), try await links.addComment(link.id, "second")]
    }
    fixture.advance(by: 60)
    return (link, comments)
  }

  /// The detail of a loaded link.
  func loaded(_ link: Link, _ comments: [Comment]) -> LinkDetail.State {
    LinkDetail.State(
      linkID: link.id, links: Shared(value: [LoadedLink(link)]),
      comments: IdentifiedArray(uniqueElements: comments))
  }

  // MARK: Opening

  @Test func openingRecordsTheViewAndLoadsTheComments() async throws {
    var (link, comments) = try await seed()
    link.lastViewedDate = fixture.date
    let store = makeStore(LinkDetail.State(linkID: link.id))
    await store.send(.onAppear)
    await store.receive(
      .contentResponse(.success(LinkDetail.Content(link: link, comments: comments)))
    ) {
      $0.$loadedLink.withLock { $0 = LoadedLink(link) }
      $0.comments = IdentifiedArray(uniqueElements: comments)
    }
    await store.finish()
    #expect(try await fixture.stored(link.id) == link)
  }

  @Test func openingAMissingLinkShowsWhy() async {
    let store = makeStore(LinkDetail.State(linkID: id(5)))
    await store.send(.onAppear)
    await store.receive(.contentResponse(.failure(.notFound(id(5))))) {
      $0.alert = AlertState {
        TextState("No link with id '00000000-0000-0000-0000-000000000005' exists.")
      }
    }
    await store.finish()
  }

  @Test func openingDropsTheAnswersStillDueForWhatWasShownBefore() async throws {
    var (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    let (clock, client) = (fixture.clock, fixture.linkClient)
    store.dependencies.linkClient.addComment = { linkID, text in
      try await clock.sleep(for: .seconds(1))
      return try await client.addComment(linkID, text)
    }
    await store.send(.addCommentSubmitted("late"))
    link.lastViewedDate = fixture.date
    await store.send(.onAppear)
    await store.receive(
      .contentResponse(.success(LinkDetail.Content(link: link, comments: comments)))
    ) {
      $0.$loadedLink.withLock { $0 = LoadedLink(link) }
    }
    await fixture.clock.advance(by: .seconds(1))
    await store.finish()
  }

  // MARK: Comments

  @Test func addingACommentShowsItLast() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    let added = Comment(id: id(3), linkID: link.id, text: "third", createdAt: fixture.date)
    await store.send(.addCommentSubmitted(" third "))
    await store.receive(.addCommentResponse(.success(added))) { $0.comments.append(added) }
    await store.finish()
    #expect(try await fixture.linkClient.fetchComments(link.id) == comments + [added])
  }

  @Test func addingABlankCommentShowsWhyAndAddsNothing() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    await store.send(.addCommentSubmitted("  "))
    await store.receive(.addCommentResponse(.failure(.emptyComment))) {
      $0.alert = AlertState { TextState("A comment cannot be empty.") }
    }
    await store.finish()
    #expect(try await fixture.linkClient.fetchComments(link.id) == comments)
  }

  @Test func updatingACommentReplacesItsText() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    var updated = comments[0]
    updated.text = "edited"
    await store.send(.updateCommentSubmitted(updated.id, "edited"))
    await store.receive(.updateCommentResponse(.success(updated))) {
      $0.comments[id: updated.id] = updated
    }
    await store.finish()
  }

  @Test func updatingAMissingCommentShowsWhy() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    await store.send(.updateCommentSubmitted(id(9), "edited"))
    await store.receive(.updateCommentResponse(.failure(.commentNotFound(id(9))))) {
      $0.alert = AlertState {
        TextState("No comment with id '00000000-0000-0000-0000-000000000009' exists.")
      }
    }
    await store.finish()
  }

  @Test func deletingACommentRemovesIt() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    await store.send(.deleteCommentSubmitted(comments[0].id))
    await store.receive(.deleteCommentResponse(.success(comments[0].id))) {
      $0.comments.remove(id: comments[0].id)
    }
    await store.finish()
    #expect(try await fixture.linkClient.fetchComments(link.id) == [comments[1]])
  }

  @Test func deletingAMissingCommentShowsWhyAndKeepsTheComments() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    await store.send(.deleteCommentSubmitted(id(9)))
    await store.receive(.deleteCommentResponse(.failure(.commentNotFound(id(9))))) {
      $0.alert = AlertState {
        TextState("No comment with id '00000000-0000-0000-0000-000000000009' exists.")
      }
    }
    await store.finish()
  }

  // MARK: A later success, under the alert of a failure

  @Test func aCommentAddedAfterABlankOneShowsUnderTheAlert() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    let added = Comment(id: id(3), linkID: link.id, text: "third", createdAt: fixture.date)
    await store.send(.addCommentSubmitted("  "))
    await store.receive(.addCommentResponse(.failure(.emptyComment))) {
      $0.alert = AlertState { TextState("A comment cannot be empty.") }
    }
    await store.send(.addCommentSubmitted("third"))
    await store.receive(.addCommentResponse(.success(added))) {
      $0.comments.append(added)
    }
    await store.finish()
  }

  @Test func aCommentUpdatedAfterAFailedUpdateShowsUnderTheAlert() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    var updated = comments[1]
    updated.text = "edited"
    await store.send(.updateCommentSubmitted(id(9), "edited"))
    await store.receive(.updateCommentResponse(.failure(.commentNotFound(id(9))))) {
      $0.alert = AlertState {
        TextState("No comment with id '00000000-0000-0000-0000-000000000009' exists.")
      }
    }
    await store.send(.updateCommentSubmitted(updated.id, "edited"))
    await store.receive(.updateCommentResponse(.success(updated))) {
      $0.comments[id: updated.id] = updated
    }
    await store.finish()
  }

  @Test func aCommentDeletedAfterAFailedDeletionLeavesUnderTheAlert() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    await store.send(.deleteCommentSubmitted(id(9)))
    await store.receive(.deleteCommentResponse(.failure(.commentNotFound(id(9))))) {
      $0.alert = AlertState {
        TextState("No comment with id '00000000-0000-0000-0000-000000000009' exists.")
      }
    }
    await store.send(.deleteCommentSubmitted(comments[1].id))
    await store.receive(.deleteCommentResponse(.success(comments[1].id))) {
      $0.comments.remove(id: comments[1].id)
    }
    await store.finish()
  }

  @Test func aFavoriteSavedAfterAFailureShowsUnderTheAlert() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    var favorite = link
    favorite.isFavorite = true
    let client = fixture.linkClient
    store.dependencies.linkClient.setFavorite = { _, _ in throw LinkError.storageFailed("busy") }
    await store.send(.favoriteSubmitted)
    await store.receive(.favoriteResponse(.failure(.storageFailed("busy")))) {
      $0.alert = AlertState { TextState("The links could not be read or saved: busy") }
    }
    store.dependencies.linkClient.setFavorite = { try await client.setFavorite($0, $1) }
    await store.send(.favoriteSubmitted)
    await store.receive(.favoriteResponse(.success(favorite))) {
      $0.$loadedLink.withLock { $0 = LoadedLink(favorite) }
    }
    await store.finish()
  }

  // MARK: The link

  @Test func togglingTheFavoriteSavesItThenShowsIt() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    var favorite = link
    favorite.isFavorite = true
    await store.send(.favoriteSubmitted)
    await store.receive(.favoriteResponse(.success(favorite))) {
      $0.$loadedLink.withLock { $0?.isFavorite = true }
    }
    await store.send(.favoriteSubmitted)
    await store.receive(.favoriteResponse(.success(link))) {
      $0.$loadedLink.withLock { $0?.isFavorite = false }
    }
    await store.finish()
  }

  @Test func togglingTheFavoriteOfALinkDeletedMeanwhileShowsWhy() async throws {
    let (link, comments) = try await seed()
    try await fixture.linkClient.deleteLink(link.id)
    let store = makeStore(loaded(link, comments))
    await store.send(.favoriteSubmitted)
    await store.receive(.favoriteResponse(.failure(.notFound(link.id)))) {
      $0.alert = AlertState {
        TextState("No link with id '00000000-0000-0000-0000-000000000000' exists.")
      }
    }
    await store.finish()
  }

  @Test func favoriteAndEditWaitForTheLinkToLoad() async {
    let store = makeStore(LinkDetail.State(linkID: id(0)))
    await store.send(.favoriteSubmitted)
    await store.send(.editSubmitted)
    await store.finish()
  }

  @Test func editSubmittedAsksTheParentToEditTheLink() async throws {
    let (link, comments) = try await seed()
    let store = makeStore(loaded(link, comments))
    await store.send(.editSubmitted)
    await store.receive(.delegate(.editLink(link)))
    await store.finish()
  }

  @Test func deleteSubmittedAsksTheParentToDeleteTheLink() async {
    let store = makeStore(LinkDetail.State(linkID: id(3)))
    await store.send(.deleteSubmitted)
    await store.receive(.delegate(.deleteLink(id(3))))
    await store.finish()
  }

  @Test func delegateActionsAreForTheParentAndChangeNothing() async {
    let store = makeStore(LinkDetail.State(linkID: id(3)))
    await store.send(.delegate(.deleteLink(id(3))))
    await store.finish()
  }
}
