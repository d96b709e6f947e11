import Categories
import CategoryClient
import Foundation
import LinkClient
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct CategoriesTests {
  let fixture = Fixture()

  func makeStore(_ state: Categories.State = Categories.State()) -> TestStore<
    Categories.State, Categories.Action
  > {
    TestStore(initialState: state) {
      Categories()
    } withDependencies: {
      fixture.prepare(&$0)
    }
  }

  func category(_ number: UInt64, _ name: String) -> Category {
    Category(id: categoryID(number), name: name, createdAt: Fixture.start)
  }

  /// The rows once "Work" (id 0, with two links) is renamed "Office", beside "home" (id 1).
  var rowsAfterRenamingWorkToOffice: [CategorySummary] {
    [
      CategorySummary(category: category(1, "home"), linkCount: 0),
      CategorySummary(category: category(0, "Office"), linkCount: 2),
    ]
  }

  /// Seeds "Work" (id 0, with two links) and "home" (id 1, with none).
  func seedWorkAndHome() async throws {
    try await fixture.seed { categories, links in
      let work = try await categories.addCategory("Work")
      _ = try await categories.addCategory("home")
      for title in ["A", "B"] {
        _ = try await links.addLink(
          LinkDraft(title: title, url: "https://a.com", categoryID: work.id))
      }
    }
  }

  // MARK: Loading

  @Test func onAppearShowsTheCategoriesByNameWithTheirCounts() async throws {
    try await seedWorkAndHome()
    let store = makeStore()
    await store.send(.onAppear)
    await store.receive(
      .summariesResponse(
        .success([
          CategorySummary(category: category(1, "home"), linkCount: 0),
          CategorySummary(category: category(0, "Work"), linkCount: 2),
        ]))
    ) {
      $0.rows = [
        CategorySummary(category: category(1, "home"), linkCount: 0),
        CategorySummary(category: category(0, "Work"), linkCount: 2),
      ]
    }
    await store.finish()
  }

  @Test func aFailedLoadShowsTheFailureAsAnAlertAndKeepsTheRows() async {
    let rows: IdentifiedArrayOf<CategorySummary> = [
      CategorySummary(category: category(0, "Work"), linkCount: 1)
    ]
    let store = makeStore(Categories.State(rows: rows))
    store.dependencies.categoryClient = .failing(.storageFailed("Disk full."))
    await store.send(.onAppear)
    await store.receive(.summariesResponse(.failure(.storageFailed("Disk full.")))) {
      $0.destination = .alert(
        AlertState { TextState("The links could not be read or saved: Disk full.") })
    }
    await store.finish()
  }

  @Test func anOnAppearBeforeARenameNeverShowsTheOldNameAfterTheNewOne() async throws {
    try await seedWorkAndHome()
    // NB: the first load reads before the rename but answers last: a stale answer arriving after
    // the rename's reload.
    let answers = HeldAnswers(answeringAt: .seconds(2), .seconds(1))
    let client = fixture.categoryClient
    let store = makeStore()
    store.dependencies.categoryClient.fetchCategorySummaries = {
      try await answers.answer { try await client.fetchCategorySummaries() }
    }
    await store.send(.onAppear)
    await answers.waitForRead(0)
    await store.send(.renameSubmitted(categoryID(0), name: "Office"))
    await store.receive(.renameResponse(.success(category(0, "Office"))))
    await answers.clock.advance(by: .seconds(1))
    let renamed = rowsAfterRenamingWorkToOffice
    await store.receive(.summariesResponse(.success(renamed))) {
      $0.rows = IdentifiedArray(uniqueElements: renamed)
    }
    await store.receive(.delegate(.showRenamed(category(0, "Office"))))
    await answers.clock.advance(by: .seconds(1))
    await store.finish()
  }

  // MARK: Adding

  @Test func addSubmittedAddsTheCategoryAndReloads() async {
    let store = makeStore()
    await store.send(.addSubmitted(name: " Work "))
    await store.receive(.addResponse(.success(category(0, "Work"))))
    await store.receive(
      .summariesResponse(.success([CategorySummary(category: category(0, "Work"), linkCount: 0)]))
    ) {
      $0.rows = [CategorySummary(category: category(0, "Work"), linkCount: 0)]
    }
    await store.finish()
  }

  @Test func addSubmittedWithANameTakenIgnoringCaseShowsTheError() async throws {
    try await seedWorkAndHome()
    let store = makeStore()
    await store.send(.addSubmitted(name: "WORK"))
    await store.receive(.addResponse(.failure(.duplicateCategoryName("WORK")))) {
      $0.destination = .alert(.failure(LinkError.duplicateCategoryName("WORK")))
    }
    await store.finish()
    #expect(try await fixture.categoryClient.fetchCategories().count == 2)
  }

  @Test func addSubmittedWithABlankNameShowsTheError() async {
    let store = makeStore()
    await store.send(.addSubmitted(name: "  "))
    await store.receive(.addResponse(.failure(.emptyCategoryName))) {
      $0.destination = .alert(.failure(LinkError.emptyCategoryName))
    }
    await store.finish()
  }

  // MARK: Renaming

  @Test func renameSubmittedRenamesTellsTheParentAndReloads() async throws {
    try await seedWorkAndHome()
    let store = makeStore()
    await store.send(.renameSubmitted(categoryID(0), name: "Office"))
    await store.receive(.renameResponse(.success(category(0, "Office"))))
    let renamed = rowsAfterRenamingWorkToOffice
    await store.receive(.summariesResponse(.success(renamed))) {
      $0.rows = IdentifiedArray(uniqueElements: renamed)
    }
    await store.receive(.delegate(.showRenamed(category(0, "Office"))))
    await store.finish()
  }

  @Test func renameSubmittedToATakenNameShowsTheErrorAndChangesNothing() async throws {
    try await seedWorkAndHome()
    let store = makeStore()
    await store.send(.renameSubmitted(categoryID(0), name: "Home"))
    await store.receive(.renameResponse(.failure(.duplicateCategoryName("Home")))) {
      $0.destination = .alert(.failure(LinkError.duplicateCategoryName("Home")))
    }
    await store.finish()
    #expect(try await fixture.categoryClient.fetchCategories().map(\.name) == ["home", "Work"])
  }

  @Test func renameSubmittedForAMissingCategoryShowsTheError() async {
    let store = makeStore()
    await store.send(.renameSubmitted(categoryID(7), name: "Home"))
    await store.receive(.renameResponse(.failure(.categoryNotFound(categoryID(7))))) {
      $0.destination = .alert(.failure(LinkError.categoryNotFound(categoryID(7))))
    }
    await store.finish()
  }

  @Test func aRenameAfterADismissedFailureRenames() async throws {
    try await seedWorkAndHome()
    let store = makeStore()
    await store.send(.renameSubmitted(categoryID(0), name: "Home"))
    await store.receive(.renameResponse(.failure(.duplicateCategoryName("Home")))) {
      $0.destination = .alert(.failure(LinkError.duplicateCategoryName("Home")))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.send(.renameSubmitted(categoryID(0), name: "Office"))
    await store.receive(.renameResponse(.success(category(0, "Office"))))
    let renamed = rowsAfterRenamingWorkToOffice
    await store.receive(.summariesResponse(.success(renamed))) {
      $0.rows = IdentifiedArray(uniqueElements: renamed)
    }
    await store.receive(.delegate(.showRenamed(category(0, "Office"))))
    await store.finish()
  }

  // MARK: Deleting

  /// The rows of "Work" (id 0, with two links) and "home" (id 1, with none), as loaded.
  var workAndHomeRows: IdentifiedArrayOf<CategorySummary> {
    [
      CategorySummary(category: category(1, "home"), linkCount: 0),
      CategorySummary(category: category(0, "Work"), linkCount: 2),
    ]
  }

  @Test func deletingACategoryWithLinksAsksThenUncategorizesThemAndTellsTheParent() async throws {
    try await seedWorkAndHome()
    let store = makeStore(
      Categories.State(rows: workAndHomeRows, selectedCategoryID: categoryID(0)))
    await store.send(.deleteSubmitted(categoryID(0))) {
      $0.destination = .alert(
        .deletion(of: CategorySummary(category: category(0, "Work"), linkCount: 2)))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(categoryID(0)))))) {
      $0.destination = nil
    }
    await store.receive(.deleteResponse(.success(categoryID(0)))) {
      $0.selectedCategoryID = nil
    }
    await store.receive(
      .summariesResponse(.success([CategorySummary(category: category(1, "home"), linkCount: 0)]))
    ) {
      $0.rows = [CategorySummary(category: category(1, "home"), linkCount: 0)]
    }
    await store.receive(.delegate(.removeCategory(categoryID(0))))
    await store.finish()
    let links = try await fixture.linkClient.fetchLinks()
    #expect(links.map(\.title) == ["B", "A"])
    #expect(links.map(\.categoryID) == [nil, nil])
  }

  @Test func keepingACategoryWithLinksDeletesNothing() async throws {
    try await seedWorkAndHome()
    let store = makeStore(Categories.State(rows: workAndHomeRows))
    await store.send(.deleteSubmitted(categoryID(0))) {
      $0.destination = .alert(
        .deletion(of: CategorySummary(category: category(0, "Work"), linkCount: 2)))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
    let summaries = try await fixture.categoryClient.fetchCategorySummaries()
    #expect(summaries == Array(workAndHomeRows))
  }

  @Test func aCategoryWithoutLinksIsDeletedWithoutAsking() async throws {
    try await seedWorkAndHome()
    let store = makeStore(Categories.State(rows: workAndHomeRows))
    await store.send(.deleteSubmitted(categoryID(1)))
    await store.receive(.deleteResponse(.success(categoryID(1))))
    await store.receive(
      .summariesResponse(.success([CategorySummary(category: category(0, "Work"), linkCount: 2)]))
    ) {
      $0.rows = [CategorySummary(category: category(0, "Work"), linkCount: 2)]
    }
    await store.receive(.delegate(.removeCategory(categoryID(1))))
    await store.finish()
  }

  @Test(arguments: [(1, "Its link stays, uncategorized."), (2, "Its 2 links stay, uncategorized.")])
  func theDeletionAlertCountsTheLinks(count: Int, message: String) {
    let row = CategorySummary(category: category(0, "Work"), linkCount: count)
    #expect(
      AlertState.deletion(of: row)
        == AlertState {
          TextState("Delete category 'Work'?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion(categoryID(0))) {
            TextState("Delete")
          }
          ButtonState(role: .cancel) { TextState("Keep") }
        } message: {
          TextState(message)
        })
  }

  @Test func aConfirmedDeletionOfACategoryNoLongerStoredShowsTheError() async throws {
    try await seedWorkAndHome()
    let store = makeStore(Categories.State(rows: workAndHomeRows))
    _ = try await fixture.categoryClient.deleteCategory(categoryID(0))
    await store.send(.deleteSubmitted(categoryID(0))) {
      $0.destination = .alert(
        .deletion(of: CategorySummary(category: category(0, "Work"), linkCount: 2)))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(categoryID(0)))))) {
      $0.destination = nil
    }
    await store.receive(.deleteResponse(.failure(.categoryNotFound(categoryID(0))))) {
      $0.destination = .alert(.failure(LinkError.categoryNotFound(categoryID(0))))
    }
    await store.finish()
  }

  @Test func anAnswerWithNoQuestionAskedDeletesNothing() async throws {
    try await seedWorkAndHome()
    let store = makeStore(Categories.State(rows: workAndHomeRows))
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      await store.send(.destination(.presented(.alert(.confirmDeletion(categoryID(0))))))
    }
    #expect(
      issues.messages == [
        """
        An 'ifLet' at 'Categories/Categories.swift:191' received a presentation action when \
        nothing was presented:

            Categories.Action.destination(
              .presented(
                .alert(
                  .confirmDeletion(
                    Category.ID(
                      rawValue: UUID(\(categoryID(0).rawValue.uuidString))
                    )
                  )
                )
              )
            )

        This is usually an effect that outlived its child, or an action sent after the child \
        was dismissed. To fix, send the child's actions only while it is presented; its effects \
        are cancelled when it is dismissed.
        """
      ])
    await store.finish()
    let summaries = try await fixture.categoryClient.fetchCategorySummaries()
    #expect(summaries == Array(workAndHomeRows))
  }

  @Test func deleteSubmittedKeepsTheSelectionOfAnotherCategory() async throws {
    try await seedWorkAndHome()
    let store = makeStore(Categories.State(selectedCategoryID: categoryID(0)))
    await store.send(.deleteSubmitted(categoryID(1)))
    await store.receive(.deleteResponse(.success(categoryID(1))))
    await store.receive(
      .summariesResponse(.success([CategorySummary(category: category(0, "Work"), linkCount: 2)]))
    ) {
      $0.rows = [CategorySummary(category: category(0, "Work"), linkCount: 2)]
    }
    await store.receive(.delegate(.removeCategory(categoryID(1))))
    await store.finish()
  }

  @Test func deleteSubmittedForAMissingCategoryShowsTheError() async {
    let store = makeStore(Categories.State(selectedCategoryID: categoryID(4)))
    await store.send(.deleteSubmitted(categoryID(4)))
    await store.receive(.deleteResponse(.failure(.categoryNotFound(categoryID(4))))) {
      $0.destination = .alert(.failure(LinkError.categoryNotFound(categoryID(4))))
    }
    await store.finish()
  }

  @Test func aDeleteAfterADismissedFailureDeletes() async throws {
    try await seedWorkAndHome()
    let store = makeStore()
    await store.send(.deleteSubmitted(categoryID(4)))
    await store.receive(.deleteResponse(.failure(.categoryNotFound(categoryID(4))))) {
      $0.destination = .alert(.failure(LinkError.categoryNotFound(categoryID(4))))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.send(.deleteSubmitted(categoryID(1)))
    await store.receive(.deleteResponse(.success(categoryID(1))))
    await store.receive(
      .summariesResponse(.success([CategorySummary(category: category(0, "Work"), linkCount: 2)]))
    ) {
      $0.rows = [CategorySummary(category: category(0, "Work"), linkCount: 2)]
    }
    await store.receive(.delegate(.removeCategory(categoryID(1))))
    await store.finish()
  }

  // MARK: Selecting

  @Test func categorySelectedSelectsAndTellsTheParent() async {
    let store = makeStore()
    await store.send(.categorySelected(categoryID(0))) { $0.selectedCategoryID = categoryID(0) }
    await store.receive(.delegate(.showLinks(in: categoryID(0))))
    await store.send(.categorySelected(nil)) { $0.selectedCategoryID = nil }
    await store.receive(.delegate(.showLinks(in: nil)))
    await store.finish()
  }

  @Test func delegateActionsChangeNothing() async {
    let store = makeStore()
    await store.send(.delegate(.showLinks(in: nil)))
    await store.send(.delegate(.showRenamed(category(0, "Work"))))
    await store.send(.delegate(.removeCategory(categoryID(0))))
    await store.finish()
  }
}
