import Foundation
import Testing

@testable import Persistence

/// The SQL the SQLite and PostgreSQL backends run for each operator: proof that it is answered
/// by SQL, not by the Swift fallback, in each dialect.
@Suite struct PredicateTranslatorTests {
  private func translate(_ predicate: Predicate<Item>, _ dialect: SQLDialect = .sqlite) throws
    -> TranslatedPredicate?
  {
    var translator = PredicateTranslator(table: try TableDescription(Item.schema), dialect: dialect)
    return translator.translate(predicate)
  }

  private func exact(_ sql: String, _ parameters: [SQLValue] = []) -> TranslatedPredicate {
    TranslatedPredicate(whereClause: SQLFragment(sql: sql, parameters: parameters), exact: true)
  }

  private func superset(_ sql: String?, _ parameters: [SQLValue] = []) -> TranslatedPredicate {
    TranslatedPredicate(
      whereClause: sql.map { SQLFragment(sql: $0, parameters: parameters) }, exact: false)
  }

  @Test func comparisonsBindTheirValues() throws {
    #expect(try translate(#Predicate { $0.count == 3 }) == exact(#"("count" = ?)"#, [.integer(3)]))
    #expect(try translate(#Predicate { $0.count != 3 }) == exact(#"("count" <> ?)"#, [.integer(3)]))
    #expect(try translate(#Predicate { $0.score < 1 }) == exact(#"("score" < ?)"#, [.real(1)]))
    #expect(try translate(#Predicate { $0.big >= 2 }) == exact(#"("big" >= ?)"#, [.integer(2)]))
    let cutoff = date(5)
    #expect(try translate(#Predicate { $0.date > cutoff }) == exact(#"("date" > ?)"#, [.real(5)]))
  }

  @Test func stringsAreBoundInNormalizationFormC() throws {
    #expect(
      try translate(#Predicate { $0.title == "cafe\u{301}" })
        == exact(#"("title" = ?)"#, [.text("caf\u{E9}")]))
  }

  @Test func optionalsUseIsAndIsNot() throws {
    #expect(try translate(#Predicate { $0.note == nil }) == exact(#"("note" IS NULL)"#))
    #expect(try translate(#Predicate { $0.note != nil }) == exact(#"("note" IS NOT NULL)"#))
    #expect(
      try translate(#Predicate { !($0.note == "a") })
        == exact(#"(NOT ("note" IS ?))"#, [.text("a")]))
    #expect(
      try translate(#Predicate { $0.flag == true }) == exact(#"("flag" IS 1)"#))
  }

  @Test func logicAndBoolColumns() throws {
    #expect(
      try translate(#Predicate { $0.isDone && $0.count > 1 || !$0.isDone })
        == exact(#"(("is_done" AND ("count" > ?)) OR (NOT "is_done"))"#, [.integer(1)]))
  }

  @Test func flatMapGuardsNil() throws {
    let cutoff = date(5)
    #expect(
      try translate(#Predicate { $0.dueDate.flatMap { $0 > cutoff } == true })
        == exact(
          #"((CASE WHEN "due_date" IS NULL THEN NULL ELSE ("due_date" > ?) END) IS 1)"#,
          [.real(5)]))
    #expect(
      try translate(#Predicate { ($0.note ?? "") == "x" })
        == exact(#"(COALESCE("note", ?) = ?)"#, [.text(""), .text("x")]))
  }

  @Test func membershipBecomesIn() throws {
    let counts = [1, 3]
    #expect(
      try translate(#Predicate { counts.contains($0.count) })
        == exact(#"("count" IN (?, ?))"#, [.integer(1), .integer(3)]))
    let notes: [String?] = ["a", nil]
    #expect(
      try translate(#Predicate { notes.contains($0.note) })
        == exact(#"(COALESCE("note" IN (?), 0) OR ("note" IS NULL))"#, [.text("a")]))
  }

  @Test func containsAndStartsWithNarrowWithInstr() throws {
    #expect(
      try translate(#Predicate { $0.title.contains("5%_") })
        == superset(#"(instr("title", ?) > 0)"#, [.text("5%_")]))
    #expect(
      try translate(#Predicate { $0.title.starts(with: "a") })
        == superset(#"(instr("title", ?) = 1)"#, [.text("a")]))
  }

  @Test func caseFoldedUsesTheHiddenColumn() throws {
    let query = "ÄPFEL".caseFolded
    #expect(
      try translate(#Predicate { $0.title.caseFolded.contains(query) })
        == superset(#"(instr("loop_folded_title", ?) > 0)"#, [.text("äpfel")]))
    #expect(
      try translate(#Predicate { $0.title.caseFolded == query })
        == exact(#"("loop_folded_title" = ?)"#, [.text("äpfel")]))
  }

  @Test func untranslatablePartsLeaveTheRestInSQL() throws {
    #expect(try translate(#Predicate { $0.title.count > 6 }) == superset(nil))
    #expect(
      try translate(#Predicate { $0.count > 1 && $0.title.count > 6 })
        == superset(#"("count" > ?)"#, [.integer(1)]))
    #expect(try translate(#Predicate { $0.count > 1 || $0.title.count > 6 }) == superset(nil))
    #expect(try translate(#Predicate { !$0.title.contains("a") }) == superset(nil))
  }

  @Test func throwingPredicatesAreEvaluatedOnEveryRow() throws {
    #expect(try translate(#Predicate { $0.count > 1 && $0.note! == "a" }) == nil)
  }

  /// `Item`'s table, made in an in-memory SQLite database.
  private func itemTable() throws -> SQLiteTable<Item> {
    let table = try TableDescription(Item.schema)
    let sqlite = try SQLiteDatabase(path: ":memory:")
    try sqlite.execute(table.migrationPlan(in: sqlite).beforeBackfill.joined(separator: ";"))
    return try SQLiteTable(table, connection: sqlite)
  }

  @Test func sortsBecomeOrderByEndingWithInsertionOrder() throws {
    let compiled = try itemTable()
    #expect(
      compiled.orderBy([SortDescriptor(\.date, order: .reverse), SortDescriptor(\.title)])
        == #""date" DESC, "title" ASC, "loop_seq""#)
    #expect(
      compiled.orderBy([SortDescriptor(\.title.caseFolded)])
        == #""loop_folded_title" ASC, "loop_seq""#)
    #expect(compiled.orderBy([SortDescriptor(\.title, comparator: .lexical)]) == nil)
    #expect(compiled.orderBy([SortDescriptor(\.title.count)]) == nil)
  }

  @Test func aSortByTheIDEndsThereWithoutInsertionOrder() throws {
    let compiled = try itemTable()
    #expect(
      compiled.orderBy([SortDescriptor(\.date, order: .reverse), SortDescriptor(\.id)])
        == #""date" DESC, "id" ASC"#)
    #expect(
      compiled.orderBy([
        SortDescriptor(\.id, order: .reverse), SortDescriptor(\.date), SortDescriptor(\.title),
      ]) == #""id" DESC"#)
  }

  // MARK: - PostgreSQL

  @Test func postgresNamesParametersWithTheirKindsAndTextInTheCCollation() throws {
    let cutoff = date(5)
    let plan = try #require(try translate(#Predicate { $0.date > cutoff }, .postgres))
    #expect(plan == exact(#"("loop_exact_date" > ?)"#, [.real(5)]))
    #expect(plan.whereClause?.kinds == [.date])
    let titled = try #require(try translate(#Predicate { $0.title == "a" }, .postgres))
    #expect(titled == exact(#"("title" = (? COLLATE "C"))"#, [.text("a")]))
    #expect(titled.whereClause?.kinds == [.text])
    let uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
    let same = try #require(try translate(#Predicate { $0.uuid == uuid }, .postgres))
    #expect(same.whereClause?.kinds == [.uuid])
  }

  @Test func postgresComparesNullsWithIsNotDistinctFromAndWritesBooleans() throws {
    #expect(
      try translate(#Predicate { $0.note == nil }, .postgres)
        == exact(#"("note" IS NOT DISTINCT FROM NULL)"#))
    #expect(
      try translate(#Predicate { $0.flag == true }, .postgres)
        == exact(#"("flag" IS NOT DISTINCT FROM true)"#))
    #expect(
      try translate(#Predicate { $0.note != "a" }, .postgres)
        == exact(#"("note" IS DISTINCT FROM (? COLLATE "C"))"#, [.text("a")]))
    let notes: [String?] = ["a", nil]
    #expect(
      try translate(#Predicate { notes.contains($0.note) }, .postgres)
        == exact(
          #"(COALESCE("note" IN ((? COLLATE "C")), false) OR ("note" IS NULL))"#, [.text("a")]))
  }

  @Test func postgresSearchesTextWithStrpos() throws {
    #expect(
      try translate(#Predicate { $0.title.contains("5%_") }, .postgres)
        == superset(#"(strpos("title", (? COLLATE "C")) > 0)"#, [.text("5%_")]))
    #expect(
      try translate(#Predicate { $0.title.starts(with: "a") }, .postgres)
        == superset(#"(strpos("title", (? COLLATE "C")) = 1)"#, [.text("a")]))
  }

  @Test func postgresSortsNullsFirstAscendingAndLastDescending() throws {
    let table = try TableDescription(Item.schema)
    #expect(
      table.orderBy(
        [SortDescriptor(\.dueDate, order: .reverse), SortDescriptor(\.note)], dialect: .postgres)
        == #""loop_exact_due_date" DESC NULLS LAST, "note" ASC NULLS FIRST, "loop_seq""#)
  }
}

extension TranslatedPredicate: Equatable {
  public static func == (lhs: TranslatedPredicate, rhs: TranslatedPredicate) -> Bool {
    lhs.whereClause == rhs.whereClause && lhs.exact == rhs.exact
  }
}
