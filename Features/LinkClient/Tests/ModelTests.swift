import Foundation
import LinkClient
import Loop
import Persistence
import TestSupport
import Testing

import struct LinkClient.Comment

@Suite struct ModelTests {
  @Test func aLinkEncodesWithItsOwnFieldNames() throws {
    let link = Link(
      id: Link.ID(UUID(counting: 1)), title: "Swift",
      url: url("https://swift.org"),
      categoryID: Category.ID(UUID(counting: 2)), memo: "m", isFavorite: true,
      createdAt: Date(timeIntervalSinceReferenceDate: 0), lastViewedDate: nil)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(link), as: UTF8.self)
        == #"{"categoryID":"00000000-0000-0000-0000-000000000002","createdAt":0,"#
        + #""id":"00000000-0000-0000-0000-000000000001","isFavorite":true,"memo":"m","#
        + #""title":"Swift","url":"https:\/\/swift.org"}"#)
    #expect(try JSONDecoder().decode(Link.self, from: try encoder.encode(link)) == link)
  }

  @Test func aDraftOfALinkHoldsItsEditableValues() {
    let link = Link(
      id: Link.ID(UUID(counting: 1)), title: "Swift",
      url: url("https://swift.org/"),
      categoryID: Category.ID(UUID(counting: 2)), memo: nil, isFavorite: true,
      createdAt: Date(timeIntervalSinceReferenceDate: 0))
    #expect(
      LinkDraft(link)
        == LinkDraft(
          title: "Swift", url: "https://swift.org/", categoryID: Category.ID(UUID(counting: 2)),
          memo: ""))
  }
}
