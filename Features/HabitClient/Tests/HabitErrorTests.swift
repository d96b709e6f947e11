import Foundation
import HabitClient
import TestSupport
import Testing

@Suite struct HabitErrorTests {
  @Test(arguments: [
    (HabitError.emptyName, "A habit needs a name: the name is empty."),
    (
      .duplicateID(habitID(1)),
      "A habit with id '00000000-0000-0000-0000-000000000001' already exists."
    ),
    (.habitNotFound(habitID(2)), "No habit with id '00000000-0000-0000-0000-000000000002' exists."),
    (.alreadyArchived(name: "Read"), "'Read' is already archived."),
    (.notArchived(name: "Read"), "'Read' is not archived."),
    (.archived(name: "Read"), "'Read' is archived: unarchive it to change its completions."),
    (
      .dayInFuture(day("2025-03-02"), today: day("2025-03-01")),
      "'2025-03-02' is in the future: today is 2025-03-01."
    ),
    (
      .alreadyCompleted(name: "Read", day: day("2025-03-01")),
      "'Read' is already done on 2025-03-01."
    ),
    (.notCompleted(name: "Read", day: day("2025-03-01")), "'Read' is not done on 2025-03-01."),
    (
      .duplicateCompletion(habitID(1), day("2025-03-01")),
      "The habit with id '00000000-0000-0000-0000-000000000001' already has a completion on "
        + "2025-03-01."
    ),
    (
      .completionNotFound(habitID(1), day("2025-03-01")),
      "The habit with id '00000000-0000-0000-0000-000000000001' has no completion on 2025-03-01."
    ),
    (
      .storageFailed("Cannot open '/x': denied."),
      "The habits could not be read or saved: Cannot open '/x': denied."
    ),
  ])
  func eachErrorHasASentenceForTheUser(error: HabitError, message: String) {
    #expect(error.description == message)
    #expect(error.localizedDescription == message)
  }
}
