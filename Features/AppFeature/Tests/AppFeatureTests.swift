import AppFeature
import Categories
import DraftEditor
import Foundation
import HabitClient
import Habits
import Interchange
import Ledger
import LedgerClient
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct AppFeatureTests {
  /// 2025-03-15 10:00 UTC.
  let now = Date(timeIntervalSince1970: 1_742_032_800)
  let habitClient = HabitClient.inMemory()
  let ledgerClient = LedgerClient.inMemory()
  let linkClient = LinkClient.inMemory()
  /// Shared by seeding and the store, so that ids never collide.
  let uuid = UUIDGenerator.incrementing

  func makeStore(_ state: AppFeature.State = AppFeature.State())
    -> TestStore<AppFeature.State, AppFeature.Action>
  {
    TestStore(initialState: state) {
      AppFeature()
    } withDependencies: {
      $0.calendar = Calendar(identifier: .gregorian)
      $0.continuousClock = TestClock()
      $0.date = .constant(now)
      $0.habitClient = habitClient
      $0.ledgerClient = ledgerClient
      $0.linkClient = linkClient
      $0.timeZone = TimeZone(identifier: "UTC") ?? .current
      $0.uuid = uuid
    }
  }

  var today: Day { Day(now, in: TimeZone(identifier: "UTC") ?? .current) }

  @Test func habitActionsRunTheHabitsFeature() async throws {
    let store = makeStore()
    await store.send(.habits(.addSubmitted(name: "Read"))) {
      $0.habits.today = today
    }
    let habit = try Habit(
      id: Habit.ID(UUID(counting: 0)), name: "Read", createdAt: now)
    await store.receive(.habits(.addResponse(.success(habit)))) {
      $0.habits.$habits.withLock { $0 = [HabitHistory(habit: habit)] }
    }
  }

  @Test func ledgerActionsRunTheLedgerFeature() async throws {
    let store = makeStore()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    await store.send(.ledger(.onAppear)) {
      $0.ledger.isLoading = true
      $0.ledger.months = LedgerMonth.months(endingWith: now, count: 12, calendar: calendar)
    }
    await store.receive(.ledger(.transactionsResponse(.success([])))) {
      $0.ledger.isLoading = false
    }
  }

  @Test func aLinksFailureIsTheLinksAlertAndATypedResponse() async throws {
    let store = makeStore()
    await store.send(.links(.deleteLinkSubmitted(Link.ID(UUID(counting: 9)))))
    await store.receive(
      .links(.deleteLinkResponse(.failure(.notFound(Link.ID(UUID(counting: 9))))))
    ) {
      $0.links.destination = .alert(
        AlertState { TextState("No link with id '00000000-0000-0000-0000-000000000009' exists.") })
    }
  }

  @Test func interchangeActionsRunTheInterchangeFeature() async throws {
    let store = makeStore()
    let file = "title,url\nSwift,https://swift.org\n"
    await store.send(
      .interchange(
        .importSubmitted(ImportRequest(scope: .links, file: "a.csv", contents: Data(file.utf8))))
    ) {
      $0.interchange.isImporting = true
    }
    await store.receive(.interchange(.importProgressed(ImportProgress(processed: 0, total: 1)))) {
      $0.interchange.progress = ImportProgress(processed: 0, total: 1)
    }
    await store.receive(.interchange(.importProgressed(ImportProgress(processed: 1, total: 1)))) {
      $0.interchange.progress = ImportProgress(processed: 1, total: 1)
    }
    let report = ImportReport(
      scope: .links, format: .csv, entries: 1, imported: EntryCounts(links: 1))
    await store.receive(.interchange(.importResponse(.success(report)))) {
      $0.interchange.isImporting = false
      $0.interchange.progress = nil
      $0.interchange.report = report
    }
    await store.receive(.interchange(.delegate(.reload(.links))))
    #expect(try await linkClient.fetchLinks().map(\.title) == ["Swift"])
  }

  @Test func aFailedImportAnswersWithItsTypedFailure() async throws {
    let store = makeStore()
    let request = ImportRequest(scope: .links, file: "empty.html", contents: Data())
    await store.send(.interchange(.importSubmitted(request))) {
      $0.interchange.isImporting = true
    }
    await store.receive(.interchange(.importResponse(.failure(.emptyFile(file: "empty.html"))))) {
      $0.interchange.isImporting = false
      $0.interchange.failure = .emptyFile(file: "empty.html")
    }
    #expect(store.state.interchange.failure?.description == "'empty.html' is empty.")
  }

  @Test func linkActionsRunTheLinksFeature() async throws {
    let store = makeStore(AppFeature.State(links: LinkList.State(screen: .recent)))
    let draft = LinkDraft(title: "Swift", url: "https://swift.org")
    await store.send(.links(.addLinkSubmitted(draft)))
    let link = Link(
      id: Link.ID(UUID(counting: 0)), title: "Swift",
      url: try #require(URL(string: "https://swift.org")),
      createdAt: now)
    await store.receive(
      .links(.addLinkResponse(.success(SavedLink(link: link, idPrefixLength: 1)))))
  }
}
