import Foundation
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

import struct LinkClient.Comment

@MainActor
@Suite struct LinkLookupTests {
  let fixture = Fixture()

  func makeStore(_ state: LinkLookup.State = LinkLookup.State()) -> TestStore<
    LinkLookup.State, LinkLookup.Action
  > {
    TestStore(initialState: state) {
      LinkLookup()
    } withDependencies: {
      fixture.prepare(&$0)
    }
  }

  /// A store of the whole links part, where a loaded preview shows as the opened link.
  func makeLinkListStore(
    _ state: LinkList.State = LinkList.State()
  ) -> TestStore<LinkList.State, LinkList.Action> {
    TestStore(initialState: state) {
      LinkList()
    } withDependencies: {
      fixture.prepare(&$0)
    }
  }

  // MARK: Refs

  @Test func aLinkRefFindsTheLinksWhoseIdStartsWithIt() async throws {
    let links = try await fixture.seedLinks(["Swift", "Loop"])
    let store = makeStore()
    await store.send(.refSubmitted("0000"))
    await store.receive(.refResponse(.success(links))) {
      $0.refMatches = links
    }
    await store.send(.refSubmitted("zz"))
    await store.receive(.refResponse(.success([]))) {
      $0.refMatches = []
    }
    await store.finish()
  }

  @Test func aRefNamingOneLinkFindsOnlyIt() async throws {
    let links = try await fixture.seedLinks(["Swift", "Loop"])
    let store = makeStore()
    let ref = links[1].id.rawValue.uuidString.lowercased()
    await store.send(.refSubmitted(ref))
    await store.receive(.refResponse(.success([links[1]]))) {
      $0.refMatches = [links[1]]
    }
    await store.finish()
  }

  @Test func aRefMatchingNoLinkReplacesTheLastMatches() async throws {
    let links = try await fixture.seedLinks(["Swift"])
    let store = makeStore(LinkLookup.State(refMatches: links))
    await store.send(.refSubmitted("ffff"))
    await store.receive(.refResponse(.success([]))) {
      $0.refMatches = []
    }
    await store.finish()
  }

  @Test func aRefMatchingManyLinksFindsAtMostTheLimit() async throws {
    let links = try await fixture.seedLinks(
      (0...LinkLookup.refMatchLimit).map { "Link \($0)" })
    let store = makeStore()
    await store.send(.refSubmitted("0000"))
    await store.receive(.refResponse(.success(Array(links.prefix(LinkLookup.refMatchLimit))))) {
      $0.refMatches = Array(links.prefix(LinkLookup.refMatchLimit))
    }
    await store.finish()
    #expect(store.state.refMatches.count == 10)
  }

  @Test func aFailedRefLookupAnswersWhyInItsResponse() async throws {
    let store = makeStore()
    store.dependencies.linkClient = LinkClient.failing(.storageFailed("disk gone"))
    await store.send(.refSubmitted("ab"))
    await store.receive(.refResponse(.failure(.storageFailed("disk gone"))))
    await store.finish()
    // NB: what the interface that asked prints, from the response's typed failure.
    #expect(
      LinkError.storageFailed("disk gone").description
        == "The links could not be read or saved: disk gone")
  }

  @Test func aRefLookupAfterAFailedOneFindsTheLinks() async throws {
    let links = try await fixture.seedLinks(["Swift"])
    let store = makeStore()
    store.dependencies.linkClient = LinkClient.failing(.storageFailed("disk gone"))
    await store.send(.refSubmitted("0000"))
    await store.receive(.refResponse(.failure(.storageFailed("disk gone"))))
    store.dependencies.linkClient = fixture.linkClient
    await store.send(.refSubmitted("0000"))
    await store.receive(.refResponse(.success(links))) {
      $0.refMatches = links
    }
    await store.finish()
  }

  // MARK: Titles

  @Test func aTitleLookupAnswersTheLinksWhoseTitleHoldsTheWordAndKeepsNothing() async throws {
    let links = try await fixture.seedLinks(["Swift book", "Loop", "The Swift forums"])
    let store = makeStore(LinkLookup.State())
    await store.send(.titleSubmitted("SWIFT"))
    await store.receive(.titleResponse(.success([links[2], links[0]])))
    await store.send(.titleSubmitted("nothing"))
    await store.receive(.titleResponse(.success([])))
    await store.finish()
  }

  @Test func aFailedTitleLookupAnswersWhyInItsResponse() async throws {
    let links = try await fixture.seedLinks(["Swift"])
    let store = makeStore(LinkLookup.State(refMatches: links))
    store.dependencies.linkClient = LinkClient.failing(.storageFailed("disk gone"))
    await store.send(.titleSubmitted("swift"))
    await store.receive(.titleResponse(.failure(.storageFailed("disk gone"))))
    await store.finish()
  }

  // MARK: Ref lengths

  @Test func aLinksRefLengthIsTheDigitsThatNameItAlone() async throws {
    try await fixture.seedLinks(["Swift", "Loop"])
    let store = makeStore(LinkLookup.State())
    // NB: no stored id starts with "f": its first digit names it alone.
    let unshared = try Link.ID(#require(UUID(uuidString: "F0000000-0000-0000-0000-000000000000")))
    await store.send(.refLengthRequested(unshared))
    await store.receive(.refLengthResponse(.success(1)))
    await store.finish()
  }

  @Test func everyLinksRefLengthIsTheDigitsThatTellAllTheStoredIdsApart() async throws {
    try await fixture.seedLinks(["Swift", "Loop"])
    let store = makeStore()
    // NB: the ids count up: the two share 31 digits.
    await store.send(.refLengthRequested(nil))
    await store.receive(.refLengthResponse(.success(32)))
    await store.finish()
  }

  @Test func aFailedRefLengthAnswersWhyInItsResponse() async throws {
    let store = makeStore()
    store.dependencies.linkClient = LinkClient.failing(.storageFailed("disk gone"))
    await store.send(.refLengthRequested(nil))
    await store.receive(.refLengthResponse(.failure(.storageFailed("disk gone"))))
    await store.finish()
  }

  @Test func aFailedRefLookupKeepsTheLastMatches() async throws {
    let links = try await fixture.seedLinks(["Swift"])
    let store = makeStore(LinkLookup.State(refMatches: links))
    store.dependencies.linkClient = LinkClient.failing(.storageFailed("disk gone"))
    await store.send(.refSubmitted("0000"))
    await store.receive(.refResponse(.failure(.storageFailed("disk gone"))))
    await store.finish()
  }

  // MARK: Previews

  @Test func aPreviewLoadsTheLinkAndItsCommentsWithoutRecordingAView() async throws {
    let links = try await fixture.seedLinks(["Swift"])
    let comment = try await fixture.seed { _, client in
      try await client.addComment(links[0].id, "Nice")
    }
    let content = LinkDetail.Content(link: links[0], comments: [comment])
    let store = makeLinkListStore()
    await store.send(.lookup(.previewSubmitted(links[0].id)))
    await store.receive(.lookup(.previewResponse(.success(content))))
    await store.receive(.lookup(.delegate(.showPreview(content)))) {
      $0.$links.withLock { $0.show(links[0]) }
      $0.destination = .detail(
        LinkDetail.State(linkID: links[0].id, links: $0.$links, comments: [comment]))
    }
    await store.finish()
    #expect(try await fixture.stored(links[0].id).lastViewedDate == nil)
  }

  @Test func aPreviewReplacesTheOpenedLink() async throws {
    let links = try await fixture.seedLinks(["Swift", "Loop"])
    let content = LinkDetail.Content(link: links[1], comments: [])
    let store = makeLinkListStore(
      LinkList.State(
        destination: .detail(
          LinkDetail.State(linkID: links[0].id, links: Shared(value: [LoadedLink(links[0])])))))
    await store.send(.lookup(.previewSubmitted(links[1].id)))
    await store.receive(.lookup(.previewResponse(.success(content))))
    // NB: the link shown before is let go of: no screen shows it now.
    await store.receive(.lookup(.delegate(.showPreview(content)))) {
      $0.$links.withLock { $0 = [LoadedLink(links[1])] }
      $0.destination = .detail(LinkDetail.State(linkID: links[1].id, links: $0.$links))
    }
    await store.finish()
  }

  @Test func aFailedPreviewAnswersWhyInItsResponseAndOpensNothing() async throws {
    let missing: Link.ID = id(42)
    let store = makeLinkListStore()
    await store.send(.lookup(.previewSubmitted(missing)))
    await store.receive(.lookup(.previewResponse(.failure(.notFound(missing)))))
    await store.finish()
    // NB: what the interface that asked prints, from the response's typed failure.
    #expect(
      LinkError.notFound(missing).description
        == "No link with id '00000000-0000-0000-0000-00000000002A' exists.")
  }

  @Test func aPreviewAfterAFailedOneOpensTheLink() async throws {
    let links = try await fixture.seedLinks(["Swift"])
    let missing: Link.ID = id(42)
    let content = LinkDetail.Content(link: links[0], comments: [])
    let store = makeLinkListStore()
    await store.send(.lookup(.previewSubmitted(missing)))
    await store.receive(.lookup(.previewResponse(.failure(.notFound(missing)))))
    await store.send(.lookup(.previewSubmitted(links[0].id)))
    await store.receive(.lookup(.previewResponse(.success(content))))
    await store.receive(.lookup(.delegate(.showPreview(content)))) {
      $0.$links.withLock { $0.show(links[0]) }
      $0.destination = .detail(LinkDetail.State(linkID: links[0].id, links: $0.$links))
    }
    await store.finish()
  }

  @Test func delegateActionsAreForTheParentAndChangeNothing() async throws {
    let links = try await fixture.seedLinks(["Swift"])
    let store = makeStore()
    await store.send(.delegate(.showPreview(LinkDetail.Content(link: links[0], comments: []))))
    await store.finish()
  }
}
