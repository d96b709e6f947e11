import Foundation
import HabitClient
import Ledger
import LedgerClient
import LinkClient
import Loop

/// The work of one import, off the main actor: check the file, read its entries, and hand them
/// to the clients, each domain in one transaction.
struct Importer: Sendable {
  var linkClient: LinkClient
  var habitClient: HabitClient
  var ledgerClient: LedgerClient
  /// Now: the `createdAt` of imported ledger transactions, and "today" for their dates.
  var now: Date
  /// The user's calendar in the user's time zone: which instant a ledger day starts.
  var calendar: Calendar
  /// The ids of imported ledger transactions.
  var uuid: UUIDGenerator

  /// Runs the import, reporting progress as the clients write.
  ///
  /// `progress` is first called with nothing processed once the file is read (so the total is
  /// known), then after every batch a client writes.
  @concurrent
  func run(
    _ request: ImportRequest, progress: @escaping @Sendable (ImportProgress) -> Void
  ) async throws(InterchangeError) -> ImportReport {
    let file = request.file
    let readsStatements = request.scope == .ledger && (request.format ?? .csv) == .csv
    if readsStatements, request.rules != nil {
      return try await importStatement(request, progress)
    }
    let text: String
    do throws(InterchangeError) {
      text = try ImportFile.text(of: request.contents, file: file)
    } catch {
      // NB: a bank statement in Latin-1 is read as such; Loop's own files must be UTF-8.
      guard readsStatements, case .notUTF8 = error,
        !LedgerCSV.isLoopCSV(String(decoding: request.contents.prefix(65_536), as: UTF8.self))
      else { throw error }
      return try await importStatement(request, progress)
    }
    let format = request.format ?? FileFormat.detect(in: text)
    switch (request.scope, format) {
    case (.links, .html):
      let links = try BookmarkFile.parse(text, file: file)
      return try await importLinks(links, rejected: [], format: format, request, progress)

    case (.links, .csv):
      let (links, rejected) = try LinkCSV.parse(text, file: file)
      return try await importLinks(links, rejected: rejected, format: format, request, progress)

    case (.ledger, .csv):
      guard LedgerCSV.isLoopCSV(text) else { return try await importStatement(request, progress) }
      let rows = try LedgerCSV.parse(
        text, file: file, options: request.ledgerOptions, today: now, calendar: calendar)
      let transactions = rows.map { row in
        LedgerTransaction(
          id: LedgerTransaction.ID(uuid()), kind: row.fields.kind, amount: row.fields.amount,
          date: row.fields.date, memo: row.fields.memo, category: row.fields.category,
          createdAt: now)
      }
      let total = transactions.count
      progress(ImportProgress(processed: 0, total: total))
      let summary = try await call(file) {
        try await ledgerClient.importTransactions(transactions, dryRun: request.isDryRun) {
          progress(ImportProgress(processed: $0, total: total))
        }
      }
      return ImportReport(
        scope: .ledger, format: format, isDryRun: request.isDryRun, entries: total,
        imported: EntryCounts(transactions: summary.imported), duplicates: summary.duplicates)

    case (_, .json):
      return try await restore(
        LoopExport.decode(text, file: file), request, progress: progress)

    case (.habits, _), (.everything, _), (.ledger, .html):
      throw .cannotImport(format, into: request.scope)
    }
  }

  /// Reads a bank statement with the request's rules, or with rules inferred from it, and hands
  /// its transactions to the ledger client.
  ///
  /// Each transaction's id comes from its content (``BankStatement/Row/id``), so importing the
  /// same statement again skips every row as a duplicate. Their `createdAt` runs a millisecond
  /// apart, up to now, in the order the statement booked them: transactions of one day are
  /// listed as the statement lists them.
  private func importStatement(
    _ request: ImportRequest, _ progress: @escaping @Sendable (ImportProgress) -> Void
  ) async throws(InterchangeError) -> ImportReport {
    let file = request.file
    let options = request.ledgerOptions
    let dateFormat = options.dateFormat == .iso ? nil : options.dateFormat
    let decimalMark = options.decimalSeparator == .period ? nil : options.decimalSeparator
    let (text, encoding) = try ImportFile.statementText(
      of: request.contents, file: file, encoding: request.rules?.encoding)
    var rules: CSVRules
    var inferred: CSVRules?
    if let given = request.rules {
      rules = given
      if let dateFormat { rules.dateFormat = dateFormat }
      if let decimalMark { rules.decimalMark = decimalMark }
    } else {
      rules = try StatementDetector.rules(
        for: text, file: file, encoding: encoding, dateFormat: dateFormat,
        decimalMark: decimalMark)
      inferred = rules
    }
    let statement = try BankStatement.read(
      text, file: file, rules: rules, today: now, calendar: calendar)
    let total = statement.rows.count
    let transactions = statement.rows.enumerated().map { offset, row in
      let rank = statement.isNewestFirst ? total - 1 - offset : offset
      return LedgerTransaction(
        id: row.id, kind: row.fields.kind, amount: row.fields.amount, date: row.fields.date,
        memo: row.fields.memo, category: row.fields.category,
        createdAt: now.addingTimeInterval(Double(rank - (total - 1)) / 1000))
    }
    progress(ImportProgress(processed: 0, total: total))
    let summary = try await call(file) {
      try await ledgerClient.importTransactions(transactions, dryRun: request.isDryRun) {
        progress(ImportProgress(processed: $0, total: total))
      }
    }
    return ImportReport(
      scope: .ledger, format: .csv, isDryRun: request.isDryRun,
      entries: total + statement.skipped.count + statement.rejected.count,
      imported: EntryCounts(transactions: summary.imported), duplicates: summary.duplicates,
      rejected: statement.rejected, skipped: statement.skipped, inferredRules: inferred)
  }

  /// Hands links read from a bookmark file or a CSV to the links client.
  private func importLinks(
    _ links: [ImportedLink], rejected: [ImportRejection], format: FileFormat,
    _ request: ImportRequest, _ progress: @escaping @Sendable (ImportProgress) -> Void
  ) async throws(InterchangeError) -> ImportReport {
    let total = links.count + rejected.count
    let skipped = rejected.count
    progress(ImportProgress(processed: skipped, total: total))
    let summary = try await call(request.file) {
      try await linkClient.importLinks(links, dryRun: request.isDryRun) {
        progress(ImportProgress(processed: skipped + $0, total: total))
      }
    }
    let rejections =
      rejected
      + summary.rejected.map { ImportRejection(line: $0.line, reason: $0.error.description) }
    return ImportReport(
      scope: .links, format: format, isDryRun: request.isDryRun, entries: total,
      imported: EntryCounts(
        categories: summary.categoriesCreated.count, links: summary.linksImported),
      duplicates: summary.duplicates, rejected: rejections.sorted { $0.line < $1.line })
  }

  /// Restores the parts of a Loop export the scope covers: each domain in one transaction, links
  /// first, then habits, then the ledger.
  private func restore(
    _ export: LoopExport, _ request: ImportRequest,
    progress: @escaping @Sendable (ImportProgress) -> Void
  ) async throws(InterchangeError) -> ImportReport {
    let file = request.file
    let dryRun = request.isDryRun
    let scope = request.scope
    let links = scope == .links || scope == .everything ? export.linkArchive : nil
    let habits = scope == .habits || scope == .everything ? export.habitArchive : nil
    let transactions = scope == .ledger || scope == .everything ? export.transactions : nil
    guard links != nil || habits != nil || transactions != nil else {
      throw .nothingToImport(file: file, scope: scope)
    }
    let linkCount = links.map { $0.categories.count + $0.links.count + $0.comments.count } ?? 0
    let habitCount = habits.map { $0.habits.count + $0.completions.count } ?? 0
    let total = linkCount + habitCount + (transactions?.count ?? 0)
    progress(ImportProgress(processed: 0, total: total))

    var imported = EntryCounts()
    var duplicates = 0
    if let links {
      let summary = try await call(file) {
        try await linkClient.restoreLinks(links, dryRun: dryRun) {
          progress(ImportProgress(processed: $0, total: total))
        }
      }
      imported.categories = summary.categoriesCreated.count
      imported.links = summary.linksImported
      imported.comments = summary.commentsImported
      duplicates += summary.duplicates
    }
    if let habits {
      let summary = try await call(file) {
        try await habitClient.restoreHabits(habits, dryRun: dryRun) {
          progress(ImportProgress(processed: linkCount + $0, total: total))
        }
      }
      imported.habits = summary.habits
      imported.completions = summary.completions
      duplicates += summary.duplicates
    }
    if let transactions {
      let summary = try await call(file) {
        try await ledgerClient.importTransactions(transactions, dryRun: dryRun) {
          progress(ImportProgress(processed: linkCount + habitCount + $0, total: total))
        }
      }
      imported.transactions = summary.imported
      duplicates += summary.duplicates
    }
    return ImportReport(
      scope: scope, format: .json, isDryRun: dryRun, entries: total, imported: imported,
      duplicates: duplicates)
  }
}

/// Runs a client call, turning its error into an ``InterchangeError``.
func call<T>(_ file: String, _ body: () async throws -> T) async throws(InterchangeError) -> T {
  do {
    return try await body()
  } catch {
    throw InterchangeError(error, file: file)
  }
}
