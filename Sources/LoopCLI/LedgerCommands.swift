import AppFeature
import DraftEditor
import Foundation
import HabitClient
import Interchange
import Ledger
import LedgerClient
import Loop

/// The `ledger` commands: each builds a draft or resolves a ref in the loaded transactions,
/// sends the Ledger feature's action, and prints what the state then shows.
enum LedgerCommands {
  /// The commands, in the order `help` lists them.
  static let all = [
    add, list, home, update, remove, report,
    InterchangeCommands.importing(
      .ledger, noun: .ledger, formats: [.csv, .json], readsLedgerCSV: true,
      summary: "Import a bank statement, a ledger CSV or a Loop export; one bad row imports none."),
    InterchangeCommands.exporting(
      .ledger, noun: .ledger, formats: [.json, .csv], readsLedgerCSV: true,
      summary: "Export the transactions as JSON or CSV."),
  ]

  private static let kind = Argument(
    "kind", help: "whether money came in or went out",
    choices: LedgerTransaction.Kind.allCases.map { ($0.rawValue, $0) })
  private static let category = Option(
    "category", valueName: "NAME", help: "the category, such as Food")

  /// `ledger add income|expense <amount> [memo] [--on DAY] [--category C]`:
  /// ``Ledger/Ledger/Action/addSubmitted(_:)``, answered by the transaction
  /// saved.
  static let add = Command(
    noun: .ledger, verb: "add", summary: "Record income or an expense.", kind, Argument.amount,
    Argument(optional: "memo", help: "what it was for"), Option.day(), category
  ) { session, kind, amount, memo, day, category throws(CommandError) in
    let date = try date(day, in: session) ?? session.environment.date.now
    let draft = TransactionDraft(
      kind: kind, amount: amount.text, date: date, memo: memo ?? "", category: category ?? "")
    let saved = try await session.send(.ledger(.addSubmitted(draft))) {
      if case .ledger(.saveResponse(.success(let saved))) = $0 { saved } else { nil }
    }
    guard let saved else { return }
    session.console.print(
      "Added \(renderer(session).describe(saved)) (\(session.shortRef(of: saved.id))).")
  }

  /// `ledger list`: ``Ledger/Ledger/Action/onAppear``, then every transaction.
  static let list = Command.listing(
    noun: .ledger, summary: "List every transaction, newest first.",
    json: { session, window in window.apply(to: session.store.state.ledger.transactions.elements) },
    text: { session, window in
      let transactions = session.store.state.ledger.transactions.elements
      guard !transactions.isEmpty else {
        return ["No transactions yet: add one with 'ledger add expense 12.50 Lunch'."]
      }
      // NB: the ref length of every transaction, read before the window is applied.
      let refLength = session.ledgerRefLength
      return renderer(session).transactions(
        window.apply(to: transactions), refLength: refLength)
    })

  /// `ledger home`: ``Ledger/Ledger/Action/onAppear``, then this month and the latest
  /// transactions.
  static let home = Command.listing(
    noun: .ledger, verb: "home",
    summary: "Show this month's balance and the 4 most recent transactions.", isWindowed: false,
    json: { session, _ in
      let home = session.store.state.ledger.home
      return LedgerHomeOutput(thisMonth: home.thisMonth, recent: home.recent)
    },
    text: { session, _ in
      renderer(session).home(
        session.store.state.ledger.home, refLength: session.ledgerRefLength)
    })

  private static func kindOption(help: String, choices: [LedgerTransaction.Kind])
    -> Option<LedgerTransaction.Kind?>
  {
    Option("kind", valueName: "KIND", help: help, choices: choices.map { ($0.rawValue, $0) })
  }

  /// `ledger update <ref> [--kind K] [--amount A] [--memo M] [--on DAY] [--category C |
  /// --no-category]`: the stored values as a draft, changed by the options, then
  /// ``Ledger/Ledger/Action/updateSubmitted(_:_:)``.
  static let update = Command(
    noun: .ledger, verb: "update", summary: "Change a transaction.", Argument.ref(.ledger),
    kindOption(help: "income or expense", choices: [.income, .expense]),
    Option.amount,
    Option("memo", valueName: "TEXT", help: "what it was"),
    Option.day(help: "the day"),
    category, Option(flag: "no-category", help: "remove the category")
  ) { session, ref, kind, amount, memo, day, category, noCategory throws(CommandError) in
    guard kind != nil || amount != nil || memo != nil || day != nil || category != nil || noCategory
    else {
      throw .usage("there is nothing to change: give at least one option")
    }
    if category != nil, noCategory {
      throw .usage("give either --category or --no-category, not both")
    }
    let date = try date(day, in: session)
    let transaction = try await session.transaction(ref)
    var draft = TransactionDraft(transaction)
    if let kind { draft.kind = kind }
    if let amount { draft.amount = amount.text }
    if let memo { draft.memo = memo }
    if let date { draft.date = date }
    if let category { draft.category = category }
    if noCategory { draft.category = "" }
    try await session.send(.ledger(.updateSubmitted(transaction.id, draft)))
    guard let updated = session.store.state.ledger.transactions[id: transaction.id] else {
      return
    }
    session.console.print(
      "Updated \(session.shortRef(of: updated.id)): \(renderer(session).describe(updated)).")
  }

  /// `ledger rm <ref>`: ``Ledger/Ledger/Action/deleteSubmitted(_:)``.
  static let remove = Command.onRef(
    noun: .ledger, verb: "rm", summary: "Delete a transaction.",
    find: { session, ref throws(CommandError) in try await session.transaction(ref) },
    action: { .ledger(.deleteSubmitted($0.id)) },
    done: { session, transaction in "Deleted \(renderer(session).describe(transaction))." })

  /// `ledger report [--kind expense|income] [--from YYYY-MM] [--to YYYY-MM] [--months N]`:
  /// ``Ledger/Ledger/Action/onAppear``, the report's `categoryKindSelected` when the kind
  /// changes, then the chart and the category totals over the period chosen
  /// (``Ledger/LedgerPeriod``; by default the 12 months up to the latest month that has
  /// transactions), derived from the loaded transactions.
  static let report = Command(
    noun: .ledger, verb: "report",
    summary: "Chart 12 months (up to the latest transaction's) and total the categories.",
    kindOption(
      help: "which kind the category totals sum (expense by default)",
      choices: [.expense, .income]),
    month("from", help: "the first month"),
    month("to", help: "the last month (the latest transaction's by default)"),
    Option("months", valueName: "N", help: "how many months (12 by default), 1 to 1200") {
      text throws(CommandError) in
      guard let count = Int(text), (1...1200).contains(count) else {
        throw .usage("'\(text)' is not a number of months: '--months' takes 1 to 1200")
      }
      return count
    },
    Option.format
  ) { session, kind, from, to, count, format throws(CommandError) in
    if from != nil, to != nil, count != nil {
      throw .usage("'--from', '--to' and '--months' cannot all be given: choose two")
    }
    if let from, let to, to < from {
      throw .usage("'--to \(to)' comes before '--from \(from)'")
    }
    try await session.reload(.ledger)
    let kind = kind ?? .expense
    if session.store.state.ledger.categoryKind != kind {
      try await session.send(.ledger(.report(.categoryKindSelected(kind))))
    }
    let environment = session.environment
    let ledger = session.store.state.ledger
    let months = LedgerPeriod(from: from, to: to, count: count).months(
      of: ledger.transactions, now: ledger.months.last?.start,
      calendar: environment.zonedCalendar)
    let report = LedgerReport.State(
      categoryKind: ledger.categoryKind, transactions: ledger.transactions, months: months)
    let json = LedgerReportOutput(
      period: months.first.flatMap { first in
        months.last.map { ReportPeriodOutput(from: "\(first)", to: "\($0)") }
      },
      months: report.months, categoryKind: report.categoryKind, categories: report.categories)
    try await session.printListing(format, json: json) { renderer(session).report(report) }
  }

  /// `--NAME YYYY-MM`: a month of the report's period.
  private static func month(_ name: String, help: String) -> Option<LedgerPeriod.Month?> {
    Option(name, valueName: "YYYY-MM", help: help) { text throws(CommandError) in
      guard let month = LedgerPeriod.Month(text) else {
        throw .usage("'\(text)' is not a month: write months as YYYY-MM, such as 2025-03")
      }
      return month
    }
  }

  @MainActor private static func renderer(_ session: Session) -> LedgerRenderer {
    LedgerRenderer(timeZone: session.environment.timeZone, style: session.style)
  }

  /// The first instant of the day `--on` names, in the user's time zone.
  @MainActor private static func date(_ day: Day?, in session: Session) throws(CommandError)
    -> Date?
  {
    guard let day else { return nil }
    guard let date = session.environment.start(of: day) else {
      throw CommandError(
        "'\(day)' does not begin in the time zone \(session.environment.timeZone.identifier)")
    }
    return date
  }
}

/// What `ledger home --format json` prints.
struct LedgerHomeOutput: Encodable {
  var thisMonth: MonthSummary?
  var recent: [LedgerTransaction]
}

/// What `ledger report --format json` prints.
struct LedgerReportOutput: Encodable {
  var period: ReportPeriodOutput?
  var months: [MonthSummary]
  var categoryKind: LedgerTransaction.Kind
  var categories: [CategoryTotal]
}

/// The months a report covers, in `ledger report --format json`: `YYYY-MM`, both included.
struct ReportPeriodOutput: Encodable {
  var from: String
  var to: String
}
