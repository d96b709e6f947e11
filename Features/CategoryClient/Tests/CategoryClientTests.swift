import CategoryClient
import CategoryClientLive
import Foundation
import LinkClient
import Loop
import Persistence
import TestSupport
import Testing

@Suite struct CategoryClientTests {
  // MARK: Adding and listing

  @Test(arguments: ClientStorage.allCases)
  func addCategoryStoresTheTrimmedName(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let work = try await harness.run { _ in try await harness.categories.addCategory("  Work \n") }
    let expected = Category(id: categoryID(0), name: "Work", createdAt: Harness.start)
    #expect(work == expected)
    #expect(try await harness.categories.fetchCategories() == [expected])
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchCategoriesIsByNameIgnoringCase(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    try await harness.run { _ in
      for name in ["banana", "Cherry", "apple", "Éclair", "Apricot"] {
        _ = try await harness.categories.addCategory(name)
      }
    }
    #expect(
      try await harness.categories.fetchCategories().map(\.name)
        == ["apple", "Apricot", "banana", "Cherry", "Éclair"])
  }

  static let duplicates: [(existing: String, typed: String, reported: String)] = [
    ("Work", "Work", "Work"),
    ("Work", "work", "work"),
    ("Work", "  WORK ", "WORK"),
    ("Straße", "STRASSE", "STRASSE"),
  ]

  @Test(arguments: Backend.allCases, duplicates)
  func addCategoryRejectsANameTakenIgnoringCase(
    _ backend: Backend, _ duplicate: (existing: String, typed: String, reported: String)
  ) async throws {
    let harness = try Harness(backend)
    let existing = try await harness.run { _ in
      try await harness.categories.addCategory(duplicate.existing)
    }
    await #expect(throws: LinkError.duplicateCategoryName(duplicate.reported)) {
      try await harness.run { _ in try await harness.categories.addCategory(duplicate.typed) }
    }
    #expect(try await harness.categories.fetchCategories() == [existing])
  }

  @Test(arguments: ClientStorage.allCases)
  func addCategoryRejectsABlankName(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    await #expect(throws: LinkError.emptyCategoryName) {
      try await harness.run { _ in try await harness.categories.addCategory(" \t ") }
    }
    #expect(try await harness.categories.fetchCategories() == [])
  }

  @Test(arguments: Backend.allCases)
  func theUniqueIndexOnTheFoldedNameBacksTheRule(_ backend: Backend) async throws {
    let harness = try Harness(backend)
    try harness.context.insert(Category(id: categoryID(1), name: "Work", createdAt: .distantPast))
    #expect(throws: PersistenceError.self) {
      try harness.context.insert(
        Category(id: categoryID(2), name: "WORK", createdAt: .distantPast))
    }
    #expect(try await harness.categories.fetchCategories().map(\.id) == [categoryID(1)])
  }

  // MARK: Renaming

  @Test(arguments: ClientStorage.allCases)
  func updateCategoryRenamesAndKeepsTheLinks(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let renamed = try await harness.run { _ in
      let work = try await harness.categories.addCategory("Work")
      _ = try await harness.links.addLink(
        LinkDraft(title: "A", url: "https://a.com", categoryID: work.id))
      return try await harness.categories.updateCategory(work.id, " Office ")
    }
    #expect(renamed == Category(id: categoryID(0), name: "Office", createdAt: Harness.start))
    #expect(try await harness.categories.fetchCategories() == [renamed])
    #expect(try await harness.links.fetchLinksInCategory(renamed.id).map(\.id) == [linkID(1)])
  }

  @Test(arguments: ClientStorage.allCases)
  func updateCategoryMayChangeTheCaseOfItsOwnName(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let work = try await harness.run { _ in try await harness.categories.addCategory("work") }
    #expect(try await harness.categories.updateCategory(work.id, "WORK").name == "WORK")
    #expect(try await harness.categories.fetchCategories().map(\.name) == ["WORK"])
  }

  @Test(arguments: ClientStorage.allCases)
  func updateCategoryRejectsBadNamesAndMissingIDsAndChangesNothing(_ kind: ClientStorage)
    async throws
  {
    let harness = try Harness(kind)
    let (home, work) = try await harness.run { _ in
      (
        try await harness.categories.addCategory("Home"),
        try await harness.categories.addCategory("Work")
      )
    }
    await #expect(throws: LinkError.duplicateCategoryName("home")) {
      try await harness.categories.updateCategory(work.id, "home")
    }
    await #expect(throws: LinkError.emptyCategoryName) {
      try await harness.categories.updateCategory(work.id, "  ")
    }
    await #expect(throws: LinkError.categoryNotFound(categoryID(9))) {
      try await harness.categories.updateCategory(categoryID(9), "Other")
    }
    #expect(try await harness.categories.fetchCategories() == [home, work])
  }

  // MARK: Deleting

  @Test(arguments: ClientStorage.allCases)
  func deleteCategoryUncategorizesItsLinksAndLosesNone(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let home = try await harness.run { _ in
      let work = try await harness.categories.addCategory("Work")  // 0
      let home = try await harness.categories.addCategory("Home")  // 1
      for (title, category) in [("W1", work.id), ("H1", home.id), ("W2", work.id)] {
        _ = try await harness.links.addLink(
          LinkDraft(title: title, url: "https://a.com", categoryID: category))
      }
      _ = try await harness.links.addLink(LinkDraft(title: "None", url: "https://b.com"))
      try await harness.categories.deleteCategory(work.id)
      return home
    }
    #expect(try await harness.categories.fetchCategories() == [home])
    let links = try await harness.links.fetchLinks()
    #expect(links.map(\.title) == ["None", "W2", "H1", "W1"])
    #expect(links.map(\.categoryID) == [nil, nil, home.id, nil])
  }

  @Test(arguments: ClientStorage.allCases)
  func deleteCategoryOfAMissingIDThrowsAndChangesNothing(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let work = try await harness.run { _ in try await harness.categories.addCategory("Work") }
    await #expect(throws: LinkError.categoryNotFound(categoryID(5))) {
      try await harness.categories.deleteCategory(categoryID(5))
    }
    #expect(try await harness.categories.fetchCategories() == [work])
  }

  // MARK: Counting

  @Test(arguments: ClientStorage.allCases)
  func countLinksAndSummariesCountEachCategorysLinks(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let (work, home, empty) = try await harness.run { _ in
      let work = try await harness.categories.addCategory("Work")
      let home = try await harness.categories.addCategory("home")
      let empty = try await harness.categories.addCategory("Empty")
      for category in [work.id, home.id, work.id, work.id] {
        _ = try await harness.links.addLink(
          LinkDraft(title: "L", url: "https://a.com", categoryID: category))
      }
      _ = try await harness.links.addLink(LinkDraft(title: "None", url: "https://b.com"))
      return (work, home, empty)
    }
    #expect(try await harness.categories.countLinks(work.id) == 3)
    #expect(try await harness.categories.countLinks(home.id) == 1)
    #expect(try await harness.categories.countLinks(empty.id) == 0)
    #expect(
      try await harness.categories.fetchCategorySummaries() == [
        CategorySummary(category: empty, linkCount: 0),
        CategorySummary(category: home, linkCount: 1),
        CategorySummary(category: work, linkCount: 3),
      ])
  }

  @Test(arguments: ClientStorage.allCases)
  func countLinksInAMissingCategoryThrows(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    await #expect(throws: LinkError.categoryNotFound(categoryID(3))) {
      try await harness.categories.countLinks(categoryID(3))
    }
  }

  // MARK: Construction

  @Test func theInMemoryPairSharesItsStorage() async throws {
    let (categoryClient, linkClient) = CategoryClient.inMemoryWithLinkClient()
    try await withDependencies {
      $0.uuid = .incrementing
      $0.date = .constant(Harness.start)
    } operation: {
      let work = try await categoryClient.addCategory("Work")
      let link = try await linkClient.addLink(
        LinkDraft(title: "A", url: "https://a.com", categoryID: work.id))
      #expect(try await categoryClient.countLinks(work.id) == 1)
      try await categoryClient.deleteCategory(work.id)
      #expect(try await linkClient.fetchLink(link.id).categoryID == nil)
    }
  }

  @Test func separateInMemoryClientsDoNotShareStorage() async throws {
    let first = CategoryClient.inMemory()
    let second = CategoryClient.inMemory()
    try await withDependencies {
      $0.uuid = .incrementing
      $0.date = .constant(Harness.start)
    } operation: {
      _ = try await first.addCategory("Work")
      #expect(try await second.fetchCategories() == [])
    }
  }

  @Test func aFailingClientThrowsItsErrorFromEveryEndpoint() async {
    let client = CategoryClient.failing(.storageFailed("Closed."))
    let calls: [@Sendable () async throws -> Void] = [
      { _ = try await client.addCategory("Work") },
      { _ = try await client.countLinks(categoryID(1)) },
      { try await client.deleteCategory(categoryID(1)) },
      { _ = try await client.fetchCategories() },
      { _ = try await client.fetchCategorySummaries() },
      { _ = try await client.updateCategory(categoryID(1), "Home") },
    ]
    for call in calls {
      await #expect(throws: LinkError.storageFailed("Closed.")) { try await call() }
    }
  }
}
