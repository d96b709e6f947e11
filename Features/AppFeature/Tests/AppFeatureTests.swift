import AppFeature
import Foundation
import HabitClient
import Habits
import Interchange
import Ledger
import LedgerClient
import LinkClient
import LinkList
import LoopTesting
import Testing

import struct LinkClient.Comment

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

  /// Adds links through the client, as a user did before.
  func seedLinks(_ titles: String...) async throws -> [Link] {
    try await withDependencies {
      $0.uuid = uuid
      $0.date = .constant(now)
    } operation: {
      try await linkClient.addLinks(
        titles.map { LinkDraft(title: $0, url: "https://example.com/\($0)") })
    }
  }

  var today: Day { Day(now, in: TimeZone(identifier: "UTC") ?? .current) }

  @Test func habitActionsRunTheHabitsFeature() async throws {
    let store = makeStore()
    await store.send(.habits(.addHabitSubmitted(name: "Read"))) {
      $0.habits.today = today
    }
    let habit = try Habit(
      id: Habit.ID(UUID(counting: 0)), name: "Read", createdAt: now)
    await store.receive(.habits(.createResponse(.success(habit)))) {
      $0.habits.habits = [HabitHistory(habit: habit)]
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
    await store.receive(.ledger(.transactionsLoaded(.success([])))) {
      $0.ledger.isLoading = false
    }
  }

  @Test func aFeatureErrorIsTheAppsErrorMessage() async throws {
    let store = makeStore()
    let missing = Habit.ID(UUID(counting: 9))
    await store.send(.habits(.deleteButtonTapped(missing))) {
      $0.habits.today = today
      $0.habits.errorMessage = HabitError.habitNotFound(missing).description
    }
    #expect(store.state.firstErrorMessage == HabitError.habitNotFound(missing).description)
  }

  @Test func theAppsErrorMessageIsTheFirstOfSeveral() async throws {
    let store = makeStore()
    let missingHabit = Habit.ID(UUID(counting: 9))
    let missingTransaction = LedgerTransaction.ID(UUID(counting: 8))
    await store.send(.habits(.deleteButtonTapped(missingHabit))) {
      $0.habits.today = today
      $0.habits.errorMessage = HabitError.habitNotFound(missingHabit).description
    }
    await store.send(.ledger(.editButtonTapped(missingTransaction))) {
      $0.ledger.errorMessage = LedgerError.transactionNotFound(missingTransaction).description
    }
    await store.finish()
    #expect(store.state.errorMessages.count == 2)
    #expect(store.state.firstErrorMessage == HabitError.habitNotFound(missingHabit).description)
  }

  @Test func errorsDismissedClearsEveryFeaturesError() async throws {
    let draft = TransactionDraft(date: now)
    var state = AppFeature.State(errorMessage: "root failed")
    state.links.errorMessage = "links failed"
    state.links.all.errorMessage = "all failed"
    state.links.search.errorMessage = "search failed"
    state.links.recent.errorMessage = "recent failed"
    state.links.categories.errorMessage = "categories failed"
    state.links.editor = LinkEditor.State(mode: .add, draft: LinkDraft(), errorMessage: "edit")
    state.links.detail = LinkDetail.State(linkID: Link.ID(UUID(counting: 7)), errorMessage: "d")
    state.habits.errorMessage = "habits failed"
    state.ledger.errorMessage = "ledger failed"
    state.ledger.editor = TransactionEditor.State(
      mode: .add, draft: draft, errorMessage: "editor failed")
    state.interchange.failure = .emptyFile(file: "empty.csv")
    #expect(
      state.errorMessages == [
        "root failed", "links failed", "all failed", "search failed", "recent failed",
        "categories failed", "edit", "d", "habits failed", "ledger failed", "editor failed",
        "'empty.csv' is empty.",
      ])
    let store = makeStore(state)
    await store.send(.errorsDismissed) {
      $0.errorMessage = nil
      $0.links.errorMessage = nil
      $0.links.all.errorMessage = nil
      $0.links.search.errorMessage = nil
      $0.links.recent.errorMessage = nil
      $0.links.categories.errorMessage = nil
      $0.links.editor?.errorMessage = nil
      $0.links.detail?.errorMessage = nil
      $0.habits.errorMessage = nil
      $0.ledger.errorMessage = nil
      $0.ledger.editor?.errorMessage = nil
      $0.interchange.failure = nil
    }
    #expect(store.state.firstErrorMessage == nil)
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
    await store.receive(.interchange(.delegate(.imported(.links))))
    #expect(try await linkClient.fetchLinks().map(\.title) == ["Swift"])
  }

  @Test func aFailedImportIsTheAppsErrorMessage() async throws {
    let store = makeStore()
    let request = ImportRequest(scope: .links, file: "empty.html", contents: Data())
    await store.send(.interchange(.importSubmitted(request))) {
      $0.interchange.isImporting = true
    }
    await store.receive(.interchange(.importResponse(.failure(.emptyFile(file: "empty.html"))))) {
      $0.interchange.isImporting = false
      $0.interchange.failure = .emptyFile(file: "empty.html")
    }
    #expect(store.state.firstErrorMessage == "'empty.html' is empty.")
  }

  @Test func aLinkRefFindsTheLinksWhoseIdStartsWithIt() async throws {
    let links = try await seedLinks("Swift", "Loop")
    let store = makeStore()
    await store.send(.linkRefEntered("0000"))
    await store.receive(.linkRefResponse(.success(links))) {
      $0.linkRefMatches = links
    }
    await store.send(.linkRefEntered("zz"))
    await store.receive(.linkRefResponse(.success([]))) {
      $0.linkRefMatches = []
    }
  }

  @Test func aPreviewLoadsTheLinkAndItsCommentsWithoutRecordingAView() async throws {
    let links = try await seedLinks("Swift")
    let comment = try await withDependencies {
      $0.uuid = uuid
      $0.date = .constant(now)
    } operation: {
      try await linkClient.addComment(links[0].id, "Nice")
    }
    let store = makeStore()
    await store.send(.linkPreviewRequested(links[0].id))
    await store.receive(
      .linkPreviewResponse(.success(LinkDetail.Content(link: links[0], comments: [comment])))
    ) {
      $0.links.detail = LinkDetail.State(
        linkID: links[0].id, link: links[0], comments: [comment])
    }
    #expect(try await linkClient.fetchLink(links[0].id).lastViewedDate == nil)
  }

  @Test func aFailedPreviewIsTheRootsError() async throws {
    let missing = Link.ID(UUID(counting: 42))
    let store = makeStore()
    await store.send(.linkPreviewRequested(missing))
    await store.receive(.linkPreviewResponse(.failure(.notFound(missing)))) {
      $0.errorMessage = LinkError.notFound(missing).description
    }
  }

  @Test func aPreviewAfterAFailedOneClearsTheRootsError() async throws {
    let links = try await seedLinks("Swift")
    let missing = Link.ID(UUID(counting: 42))
    let store = makeStore()
    await store.send(.linkPreviewRequested(missing))
    await store.receive(.linkPreviewResponse(.failure(.notFound(missing)))) {
      $0.errorMessage = LinkError.notFound(missing).description
    }
    await store.send(.linkPreviewRequested(links[0].id)) { $0.errorMessage = nil }
    await store.receive(
      .linkPreviewResponse(.success(LinkDetail.Content(link: links[0], comments: [])))
    ) {
      $0.links.detail = LinkDetail.State(linkID: links[0].id, link: links[0], comments: [])
    }
    await store.finish()
  }

  @Test func aFailedRefLookupIsTheRootsError() async throws {
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.linkClient = LinkClient.failing(.storageFailed("disk gone"))
    }
    await store.send(.linkRefEntered("ab"))
    await store.receive(.linkRefResponse(.failure(.storageFailed("disk gone")))) {
      $0.errorMessage = LinkError.storageFailed("disk gone").description
    }
  }

  @Test func aRefLookupAfterAFailedOneClearsTheRootsError() async throws {
    let links = try await seedLinks("Swift")
    let store = makeStore()
    store.dependencies.linkClient = LinkClient.failing(.storageFailed("disk gone"))
    await store.send(.linkRefEntered("0000"))
    await store.receive(.linkRefResponse(.failure(.storageFailed("disk gone")))) {
      $0.errorMessage = LinkError.storageFailed("disk gone").description
    }
    store.dependencies.linkClient = linkClient
    await store.send(.linkRefEntered("0000")) { $0.errorMessage = nil }
    await store.receive(.linkRefResponse(.success(links))) {
      $0.linkRefMatches = links
    }
    await store.finish()
  }

  @Test func theRootKeepsTheLinkTheLastSaveStored() async throws {
    let store = makeStore(AppFeature.State(links: LinkList.State(screen: .recent)))
    let draft = LinkDraft(title: "Swift", url: "https://swift.org")
    await store.send(.links(.addLinkSubmitted(draft))) {
      $0.links.editor = LinkEditor.State(mode: .add, draft: draft)
    }
    await store.receive(.links(.editor(.presented(.saveTapped)))) {
      $0.links.editor?.isSaving = true
    }
    await store.receive(
      .links(.editor(.presented(.delegate(.saveRequested(mode: .add, draft: draft))))))
    let link = Link(
      id: Link.ID(UUID(counting: 0)), title: "Swift",
      url: try #require(URL(string: "https://swift.org")),
      createdAt: now)
    await store.receive(.links(.saveLinkResponse(.success(link)))) {
      $0.links.editor = nil
      $0.savedLink = link
    }
    await store.receive(.links(.recent(.loadRequested)))
    await store.receive(.links(.recent(.linksResponse(.success([])))))
  }

  @Test func noErrorMessageWhenNothingFailed() {
    #expect(AppFeature.State().errorMessages == [])
    #expect(AppFeature.State().firstErrorMessage == nil)
  }
}
