import AppFeature
import Foundation
import Ledger
import LedgerClient
import Loop

// The `ledger` commands: each builds a draft or resolves a ref in the loaded transactions,
// sends the Ledger feature's action, and prints what the state then shows.
extension Session {
  /// `ledger add income|expense <amount> [memo] [--on DAY] [--category C]`:
  /// ``Ledger/Ledger/Action/draftSubmitted(_:_:)`` in add mode.
  func ledgerAdd(_ invocation: Invocation) async throws(CommandError) {
    let kind = try self.kind(invocation[argument: "kind"])
    let date = try self.date(invocation[option: "on"]) ?? environment.date.now
    let draft = TransactionDraft(
      kind: kind, amount: invocation[argument: "amount"] ?? "", date: date,
      memo: invocation[argument: "memo"] ?? "", category: invocation[option: "category"] ?? "")
    let before = Self.ids(of: store.state.ledger.transactions)
    try await send(.ledger(.draftSubmitted(.add, draft)))
    let transactions = store.state.ledger.transactions
    let after = Self.ids(of: transactions)
    guard let index = ListChange.firstAdded(to: before, in: after) else { return }
    let ref = Ref.short(after[index], length: ledgerRefLengths.length(ofIDs: after))
    console.print("Added \(describe(transactions[index])) (\(ref)).")
  }

  /// `ledger list`: ``Ledger/Ledger/Action/onAppear``, then every transaction.
  func ledgerList(_ invocation: Invocation) async throws(CommandError) {
    try await reload(.ledger)
    let transactions = store.state.ledger.transactions.elements
    if invocation.wantsJSON {
      try printJSON(transactions)
      return
    }
    guard !transactions.isEmpty else {
      console.print("No transactions yet: add one with 'ledger add expense 12.50 Lunch'.")
      return
    }
    for line in renderer.transactions(transactions, refLength: refLength) { console.print(line) }
  }

  /// `ledger home`: ``Ledger/Ledger/Action/onAppear``, then this month and the latest
  /// transactions.
  func ledgerHome(_ invocation: Invocation) async throws(CommandError) {
    try await reload(.ledger)
    let home = store.state.ledger.home
    if invocation.wantsJSON {
      try printJSON(LedgerHomeOutput(thisMonth: home.thisMonth, recent: home.recent))
      return
    }
    for line in renderer.home(home, refLength: refLength) { console.print(line) }
  }

  /// `ledger update <ref> [--kind K] [--amount A] [--memo M] [--on DAY] [--category C |
  /// --no-category]`: the stored values as a draft, changed by the options, then
  /// ``Ledger/Ledger/Action/draftSubmitted(_:_:)`` in edit mode.
  func ledgerUpdate(_ invocation: Invocation) async throws(CommandError) {
    guard !invocation.values.isEmpty || !invocation.flags.isEmpty else {
      throw invocation.spec.usageError("there is nothing to change: give at least one option")
    }
    if invocation[option: "category"] != nil, invocation.has("no-category") {
      throw invocation.spec.usageError("give either --category or --no-category, not both")
    }
    let date = try self.date(invocation[option: "on"])
    let transaction = try await self.transaction(invocation)
    var draft = TransactionDraft(transaction)
    if let kind = invocation[option: "kind"] { draft.kind = try self.kind(kind) }
    if let amount = invocation[option: "amount"] { draft.amount = amount }
    if let memo = invocation[option: "memo"] { draft.memo = memo }
    if let date { draft.date = date }
    if let category = invocation[option: "category"] { draft.category = category }
    if invocation.has("no-category") { draft.category = "" }
    try await send(.ledger(.draftSubmitted(.edit(transaction.id), draft)))
    guard let updated = store.state.ledger.transactions[id: transaction.id] else { return }
    console.print("Updated \(shortRef(of: updated.id)): \(describe(updated)).")
  }

  /// `ledger rm <ref>`: ``Ledger/Ledger/Action/deleteButtonTapped(_:)``.
  func ledgerRemove(_ invocation: Invocation) async throws(CommandError) {
    let transaction = try await self.transaction(invocation)
    try await send(.ledger(.deleteButtonTapped(transaction.id)))
    console.print("Deleted \(describe(transaction)).")
  }

  /// `ledger report [--kind expense|income]`: ``Ledger/Ledger/Action/onAppear``, the report's
  /// `categoryKindSelected` when the kind changes, then the chart and the category totals.
  func ledgerReport(_ invocation: Invocation) async throws(CommandError) {
    try await reload(.ledger)
    let kind = try invocation[option: "kind"].map(self.kind) ?? .expense
    if store.state.ledger.categoryKind != kind {
      try await send(.ledger(.report(.categoryKindSelected(kind))))
    }
    let report = store.state.ledger.report
    if invocation.wantsJSON {
      try printJSON(
        LedgerReportOutput(
          months: report.months, categoryKind: report.categoryKind,
          categories: report.categories))
      return
    }
    for line in renderer.report(report) { console.print(line) }
  }

  // MARK: - Helpers

  private var renderer: LedgerRenderer {
    LedgerRenderer(environment: environment, style: style)
  }

  /// The transaction the command's `<ref>` names, loading the ledger first if needed.
  private func transaction(_ invocation: Invocation) async throws(CommandError)
    -> LedgerTransaction
  {
    try await load(.ledger)
    return try Ref.resolve(
      invocation[argument: "ref"] ?? "", in: store.state.ledger.transactions.elements,
      id: \.id.rawValue, label: describe, noun: "transaction",
      listing: "ledger list")
  }

  /// The ref length of the loaded transactions.
  private var refLength: Int {
    ledgerRefLengths.length(ofIDs: Self.ids(of: store.state.ledger.transactions))
  }

  /// The transactions' ids, in order.
  ///
  /// NB: nonisolated: a closure made on the main actor checks the executor each time it runs.
  private nonisolated static func ids(
    of transactions: IdentifiedArrayOf<LedgerTransaction>
  ) -> [UUID] {
    transactions.elements.map { $0.id.rawValue }
  }

  private func shortRef(of id: LedgerTransaction.ID) -> String {
    Ref.short(id.rawValue, length: refLength)
  }

  /// `expense 12.50 'Lunch' on 2025-03-15 in Food`.
  private func describe(_ transaction: LedgerTransaction) -> String {
    var text = "\(transaction.kind.rawValue) \(transaction.amount.formatted())"
    if !transaction.memo.isEmpty { text += " '\(transaction.memo)'" }
    text += " on \(environment.day(of: transaction.date))"
    if let category = transaction.category { text += " in \(category)" }
    return text
  }

  private func kind(_ text: String?) throws(CommandError) -> LedgerTransaction.Kind {
    guard let text, let kind = LedgerTransaction.Kind(rawValue: text) else {
      throw CommandError("'\(text ?? "")' is not 'income' or 'expense'")
    }
    return kind
  }

  /// The first instant of the day `--on` names, in the user's time zone.
  private func date(_ text: String?) throws(CommandError) -> Date? {
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
