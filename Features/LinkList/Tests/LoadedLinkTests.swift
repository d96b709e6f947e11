import Foundation
import LinkClient
import LinkList
import Loop
import TestSupport
import Testing

/// What the links part keeps of a link it loaded, which every screen reads.
@Suite struct LoadedLinkTests {
  let swift = Link(
    id: id(1), title: "Swift", url: seededURL(1), categoryID: id(0), memo: "the language",
    isFavorite: true, createdAt: seededDate(1), lastViewedDate: seededDate(2))

  @Test func aLinkReadWholeIsTheLinkAgain() {
    #expect(LoadedLink(swift).link == swift)
    #expect(LoadedLink(swift).address == seededURL(1).absoluteString)
  }

  @Test func aLinkAPageReadHasNoDetailsAndIsNoWholeLink() {
    let loaded = LoadedLink(LinkSummary(swift))
    #expect(loaded.details == nil)
    #expect(loaded.link == nil)
    #expect(loaded.title == "Swift")
    #expect(loaded.categoryID == id(0))
    #expect(loaded.isFavorite)
  }

  @Test func aPageReadAfterTheWholeLinkKeepsItsDetails() {
    var links: IdentifiedArrayOf<LoadedLink> = [LoadedLink(swift)]
    var renamed = LinkSummary(swift)
    renamed.title = "Swift 6"
    links.show(renamed)
    var expected = swift
    expected.title = "Swift 6"
    #expect(links[id: id(1)]?.link == expected)
  }

  @Test func aLinkReadWholeReplacesWhatAPageRead() {
    var links: IdentifiedArrayOf<LoadedLink> = [LoadedLink(LinkSummary(swift))]
    links.show(swift)
    #expect(links[id: id(1)] == LoadedLink(swift))
  }

  @Test func aSavedLinkIsKeptOnlyIfAScreenShowsIt() {
    var links: IdentifiedArrayOf<LoadedLink> = []
    links.update(swift)
    #expect(links.isEmpty)
    var saved = swift
    saved.isFavorite = false
    links = [LoadedLink(swift)]
    links.update(saved)
    #expect(links[id: id(1)] == LoadedLink(saved))
  }

  @Test func anAddressThatIsNoURLShowsNoWholeLinkAndNoRow() {
    var loaded = LoadedLink(swift)
    loaded.address = ""
    #expect(loaded.link == nil)
    #expect(SearchLinks.Row(loaded, query: "") == nil)
    #expect(RecentLinks.Row(loaded) == nil)
  }
}
