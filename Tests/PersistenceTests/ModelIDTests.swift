import Foundation
import Loop
import Persistence
import Testing

@Suite struct ModelIDTests {
  @Test func idsEncodeAsUUIDStringsAndRoundTrip() throws {
    let id = Note.ID(uuid(10))
    let data = try JSONEncoder().encode([id])
    #expect(String(decoding: data, as: UTF8.self) == #"["00000000-0000-0000-0000-00000000000A"]"#)
    #expect(try JSONDecoder().decode([Note.ID].self, from: data) == [id])
    #expect(Note.ID(uuidString: "00000000-0000-0000-0000-00000000000a") == id)
    #expect(Note.ID(uuidString: "not a uuid") == nil)
    #expect(id.description == "00000000-0000-0000-0000-00000000000A")
  }

  @Test func idsSortAsTheirUUIDs() {
    #expect(Note.ID(uuid(1)) < Note.ID(uuid(2)))
    #expect(!(Note.ID(uuid(2)) < Note.ID(uuid(1))))
  }

  @Test func idsOfOneUUIDHashAlikeAndIdsDifferingInEitherHalfApart() {
    let id = Note.ID(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))
    let twin = Note.ID(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))
    let firstHalf = Note.ID(UUID(uuid: (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))
    let secondHalf = Note.ID(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0)))
    #expect(id.hashValue == twin.hashValue)
    #expect(id.hashValue != firstHalf.hashValue)
    #expect(id.hashValue != secondHalf.hashValue)
    #expect(Set([id, twin, firstHalf, secondHalf]).count == 3)
  }

  @Test func anIdShowsInDiffsAsItsModelsID() {
    #expect(Note.ID.diffTypeName == "Note.ID")
  }
}

/// A model the ids are typed by.
private struct Note {
  typealias ID = ModelID<Note>
}

/// The UUID whose last digits are `n`, in hexadecimal.
private func uuid(_ n: UInt8) -> UUID {
  UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, n))
}
