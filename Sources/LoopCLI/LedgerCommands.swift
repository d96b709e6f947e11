import AppFeature
import Foundation
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
      .ledger, noun: .ledger, formats: ["csv", "json"], readsLedgerCSV: true,
      summary: "Import a bank statement, a ledger CSV or a Loop export; one bad row imports none."),
    InterchangeCommands.exporting(
      .ledger, noun: .ledger, formats: ["json", "csv"], readsLedgerCSV: true,
      summary: "Export the transactions as JSON or CSV."),
  ]

  private static let kind = Argument(name: "kind", choices: ["income", "expense"])
  private static let amount = Argument(name: "amount")
  private static let memo = Argument(name: "memo", isOptional: true)
  private static let category = Option(
    name: "category", valueName: "NAME", summary: "the category, such as Food")

  /// `ledger add income|expense <amount> [memo] [--on DAY] [--category C]`:
  /// ``Ledger/Ledger/Action/draftSubmitted(_:_:)`` in add mode, answered by the transaction
  /// saved.
  static let add = Command(
    noun: .ledger, verb: "add", arguments: [kind, amount, memo], options: [.day, category],
    summary: "Record income or an expense."
  ) { session, input throws(CommandError) in
    let given = try session.kind(input[kind])
    let date = try session.date(input[.day]) ?? session.environment.date.now
    let draft = TransactionDraft(
      kind: given, amount: input[amount], date: date, memo: input[ifGiven: memo] ?? "",
      category: input[category] ?? "")
    try await session.sendAdding(
      .ledger(.draftSubmitted(.add, draft)),
      answer: {
        if case .ledger(.saveResponse(.success(let saved))) = $0 { saved } else { nil }
      },
      id: \.id.rawValue, to: \.ledger.transactions, ids: Session.ids(of:),
      refLengths: \.ledgerRefLengths
    ) { "Added \(session.describe($0)) (\($1))." }
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
      return session.ledgerRenderer.transactions(
        window.apply(to: transactions), refLength: refLength)
    })

  /// `ledger home`: ``Ledger/Ledger/Action/onAppear``, then this month and the latest
  /// transactions.
  static let home = Command.listing(
    noun: .ledger, verb: "home",
    summary: "Show this month's balance and the 4 most recent transactions.", options: [.format],
    json: { session, _ in
      let home = session.store.state.ledger.home
      return LedgerHomeOutput(thisMonth: home.thisMonth, recent: home.recent)
    },
    text: { session, _ in
      session.ledgerRenderer.home(
        session.store.state.ledger.home, refLength: session.ledgerRefLength)
    })

  private static let newKind = Option(
    name: "kind", valueName: "KIND", choices: ["income", "expense"],
    summary: "income or expense")
  private static let newAmount = Option(
    name: "amount", valueName: "AMOUNT", summary: "the amount, such as 12.50")
  private static let newMemo = Option(name: "memo", valueName: "TEXT", summary: "what it was")
  private static let newDay = Option(name: "on", valueName: "YYYY-MM-DD", summary: "the day")
  private static let noCategory = Option(name: "no-category", summary: "remove the category")

  /// `ledger update <ref> [--kind K] [--amount A] [--memo M] [--on DAY] [--category C |
  /// --no-category]`: the stored values as a draft, changed by the options, then
  /// ``Ledger/Ledger/Action/draftSubmitted(_:_:)`` in edit mode.
  static let update = Command(
    noun: .ledger, verb: "update", arguments: [.ref],
    options: [newKind, newAmount, newMemo, newDay, category, noCategory],
    summary: "Change a transaction."
  ) { session, input throws(CommandError) in
    guard !input.hasNoOptions else {
      throw input.command.usageError("there is nothing to change: give at least one option")
    }
    if input[category] != nil, input.has(noCategory) {
      throw input.command.usageError("give either --category or --no-category, not both")
    }
    let date = try session.date(input[newDay])
    let transaction = try await session.transaction(input[.ref])
    var draft = TransactionDraft(transaction)
    if let kind = input[newKind] { draft.kind = try session.kind(kind) }
    if let amount = input[newAmount] { draft.amount = amount }
    if let memo = input[newMemo] { draft.memo = memo }
    if let date { draft.date = date }
    if let category = input[category] { draft.category = category }
    if input.has(noCategory) { draft.category = "" }
    try await session.send(.ledger(.draftSubmitted(.edit(transaction.id), draft)))
    guard let updated = session.store.state.ledger.transactions[id: transaction.id] else {
      return
    }
    session.console.print(
      "Updated \(session.shortRef(of: updated.id)): \(session.describe(updated)).")
  }

  /// `ledger rm <ref>`: ``Ledger/Ledger/Action/deleteSubmitted(_:)``.
  static let remove = Command.onRef(
    noun: .ledger, verb: "rm", summary: "Delete a transaction.",
    find: { session, ref throws(CommandError) in try await session.transaction(ref) },
    action: { .ledger(.deleteSubmitted($0.id)) },
    done: { session, transaction in "Deleted \(session.describe(transaction))." })

  private static let reportKind = Option(
    name: "kind", valueName: "KIND", choices: ["expense", "income"],
    summary: "which kind the category totals sum (expense by default)")

  /// `ledger report [--kind expense|income]`: ``Ledger/Ledger/Action/onAppear``, the report's
  /// `categoryKindSelected` when the kind changes, then the chart and the category totals.
  static let report = Command(
    noun: .ledger, verb: "report", options: [reportKind, .format],
    summary: "Chart the last 12 months and total the categories."
  ) { session, input throws(CommandError) in
    try await session.reload(.ledger)
    let kind = try input[reportKind].map(session.kind) ?? .expense
    if session.store.state.ledger.categoryKind != kind {
      try await session.send(.ledger(.report(.categoryKindSelected(kind))))
    }
    let report = session.store.state.ledger.report
    let json = LedgerReportOutput(
      months: report.months, categoryKind: report.categoryKind, categories: report.categories)
    try await session.printListing(input, json: json) { session.ledgerRenderer.report(report) }
  }
}

// MARK: - Helpers

extension Session {
  fileprivate var ledgerRenderer: LedgerRenderer {
    LedgerRenderer(environment: environment, style: style)
  }

  /// The transaction `ref` names, loading the ledger first if needed.
  fileprivate func transaction(_ ref: String) async throws(CommandError) -> LedgerTransaction {
    try await load(.ledger)
    return try Ref.resolve(
      ref, in: store.state.ledger.transactions.elements,
      id: \.id.rawValue, label: describe, noun: "transaction",
      listing: "ledger list")
  }

  /// The ref length of the loaded transactions.
  fileprivate var ledgerRefLength: Int {
    ledgerRefLengths.length(ofIDs: Self.ids(of: store.state.ledger.transactions))
  }

  /// The transactions' ids, in order.
  ///
  /// NB: nonisolated: a closure made on the main actor checks the executor each time it runs.
  fileprivate nonisolated static func ids(
    of transactions: IdentifiedArrayOf<LedgerTransaction>
  ) -> [UUID] {
    transactions.elements.map { $0.id.rawValue }
  }

  fileprivate func shortRef(of id: LedgerTransaction.ID) -> String {
    Ref.short(id.rawValue, length: ledgerRefLength)
  }

  /// `expense 12.50 'Lunch' on 2025-03-15 in Food`.
  fileprivate func describe(_ transaction: LedgerTransaction) -> String {
    var text = "\(transaction.kind.rawValue) \(transaction.amount.formatted())"
    if !transaction.memo.isEmpty { text += " '\(transaction.memo)'" }
    text += " on \(environment.day(of: transaction.date))"
    if let category = transaction.category { text += " in \(category)" }
    return text
  }

  fileprivate func kind(_ text: String) throws(CommandError) -> LedgerTransaction.Kind {
    guard let kind = LedgerTransaction.Kind(rawValue: text) else {
      throw CommandError("'\(text)' is not 'income' or 'expense'")
    }
    return kind
  }

  /// The first instant of the day `--on` names, in the user's time zone.
  fileprivate func date(_ text: String?) throws(CommandError) -> Date? {
    guard let day = try day(text) else { return nil }
    guard let date = environment.start(of: day) else {
      throw CommandError(
        "'\(day)' does not begin in the time zone \(environment.timeZone.identifier)")
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
  var months: [MonthSummary]
  var categoryKind: LedgerTransaction.Kind
  var categories: [CategoryTotal]
}
