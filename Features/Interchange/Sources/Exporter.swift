import Foundation
import HabitClient
import LedgerClient
import LinkClient

/// The work of one export, off the main actor: read a domain (or all) through the clients and
/// write it in the requested format.
struct Exporter: Sendable {
  var linkClient: LinkClient
  var habitClient: HabitClient
  var ledgerClient: LedgerClient
  /// Now: the export's `exportedAt`.
  var now: Date
  /// The user's calendar in the user's time zone: which day a ledger date falls on in CSV.
  var calendar: Calendar

  /// Runs the export.
  @concurrent
  func run(_ request: ExportRequest) async throws(InterchangeError) -> ExportedFile {
    let scope = request.scope
    switch (scope, request.format) {
    case (.everything, .csv), (.everything, .html), (.habits, .html), (.ledger, .html):
      throw .cannotExport(scope, as: request.format)
    default:
      break
    }
    let file = "\(scope) export"
    let links =
      scope == .links || scope == .everything
      ? try await call(file) { try await linkClient.exportLinks() } : nil
    let habits =
      scope == .habits || scope == .everything
      ? try await call(file) { try await habitClient.exportHabits() } : nil
    let transactions =
      scope == .ledger || scope == .everything
      ? try await call(file) { try await ledgerClient.fetchTransactions() } : nil
    // NB: only JSON holds comments; a CSV or a bookmark file of links leaves them out.
    let counts = EntryCounts(
      categories: links?.categories.count ?? 0, links: links?.links.count ?? 0,
      comments: request.format == .json ? links?.comments.count ?? 0 : 0,
      habits: habits?.habits.count ?? 0,
      completions: habits?.completions.count ?? 0, transactions: transactions?.count ?? 0)

    let text: String
    switch request.format {
    case .json:
      let export = LoopExport(
        exportedAt: now, links: links, habits: habits, transactions: transactions)
      do {
        return ExportedFile(
          scope: scope, format: .json, contents: try export.encoded(), counts: counts)
      } catch {
        throw .unwritableFile(file: file, reason: String(describing: error))
      }
    case .csv:
      if let links {
        text = LinkCSV.write(links)
      } else if let habits {
        text = HabitCSV.write(habits)
      } else {
        text = LedgerCSV.write(
          transactions ?? [], options: request.ledgerOptions, calendar: calendar)
      }
    case .html:
      text = BookmarkFile.write(links ?? LinkArchive())
    }
    return ExportedFile(
      scope: scope, format: request.format, contents: Data(text.utf8), counts: counts)
  }
}
