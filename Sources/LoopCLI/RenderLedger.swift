import Foundation
import HabitClient
import Ledger
import LedgerClient
import Loop
import Persistence

/// The ledger as text: tables of transactions, this month's balance, and the report's bar
/// charts.
struct LedgerRenderer {
  /// The user's time zone, which names each transaction's day.
  ///
  /// NB: the zone alone, not the whole ``AppEnvironment`` (every client's closures, copied
  /// and released): a scripted `ledger add` makes a renderer for its answer.
  var timeZone: TimeZone
  var style: Style

  /// The widest a chart's bar is, in characters.
  static let barWidth = 30

  /// A table of transactions: ref, day, signed amount, category and memo.
  func transactions(_ transactions: [LedgerTransaction], refLength: Int) -> [String] {
    var table = Table(columns: [
      Table.Column(header: "REF", style: style.yellow),
      Table.Column(header: "DATE"),
      Table.Column(
        header: "AMOUNT", alignment: .right,
        style: { $0.hasPrefix("-") ? style.red($0) : style.green($0) }),
      Table.Column(header: "CATEGORY", isCut: true),
      Table.Column(header: "MEMO", isCut: true),
    ])
    for transaction in transactions {
      table.rows.append([
        Ref.short(transaction.id.rawValue, length: refLength),
        "\(Day(transaction.date, in: timeZone))",
        Self.signed(transaction),
        transaction.category ?? "",
        transaction.memo,
      ])
    }
    return table.render(style: style)
  }

  /// This month's income, expense and balance, then the latest transactions.
  func home(_ home: LedgerHome.State, refLength: Int) -> [String] {
    var lines: [String] = []
    if let month = home.thisMonth {
      let amounts = [month.income, month.expense, month.balance].map { $0.formatted() }
      let width = amounts.map(\.count).max() ?? 0
      func row(_ label: String, _ amount: String) -> String {
        "\(label)  " + String(repeating: " ", count: width - amount.count) + amount
      }
      lines += [
        style.bold("This month (\(month.month))"),
        row("income ", amounts[0]),
        row("expense", amounts[1]),
        row("balance", amounts[2]),
        "",
      ]
    }
    guard !home.recent.isEmpty else {
      return lines + ["No transactions yet: add one with 'ledger add expense 12.50 Lunch'."]
    }
    return lines + [style.bold("Recent")] + transactions(home.recent, refLength: refLength)
  }

  /// Income and expense of each month as bars, then the category totals as bars.
  func report(_ report: LedgerReport.State) -> [String] {
    let count = report.months.count
    let period =
      if let first = report.months.first, let last = report.months.last, count > 1 {
        "\(first.month) to \(last.month) (\(count) months)"
      } else {
        report.months.first.map { "\($0.month) (1 month)" } ?? "No months"
      }
    var lines = [style.bold(period) + "  (█ income, ░ expense)"]
    let largest = report.months.flatMap { [$0.income, $0.expense] }.max() ?? .zero
    let amountWidth =
      report.months.flatMap { [$0.income, $0.expense] }.map { $0.formatted().count }.max() ?? 0
    for summary in report.months {
      let label = "\(summary.month)"
      lines.append(
        barLine(
          label, bar: bar(summary.income, of: largest, character: "█", color: style.green),
          amount: summary.income.formatted(), amountWidth: amountWidth))
      lines.append(
        barLine(
          String(repeating: " ", count: label.count),
          bar: bar(summary.expense, of: largest, character: "░", color: style.red),
          amount: summary.expense.formatted(), amountWidth: amountWidth))
    }
    let balance = report.months.reduce(Money.zero) { $0 + $1.balance }
    lines.append("balance over \(report.months.count) months: \(balance.formatted())")
    lines.append("")

    let kind = report.categoryKind == .expense ? "Expenses" : "Income"
    lines.append(style.bold("\(kind) by category"))
    guard !report.categories.isEmpty else {
      return lines + ["(none in these months)"]
    }
    let names = report.categories.map { $0.category ?? "(none)" }
    let nameWidth = names.map(\.count).max() ?? 0
    let top = report.categories.map(\.total).max() ?? .zero
    let totalWidth = report.categories.map { $0.total.formatted().count }.max() ?? 0
    for (total, name) in zip(report.categories, names) {
      let padded = name + String(repeating: " ", count: nameWidth - name.count)
      let amount = total.total.formatted()
      let line =
        "\(padded)  \(bar(total.total, of: top, character: "█", color: style.cyan).padded)  "
        + String(repeating: " ", count: totalWidth - amount.count) + amount
        + "  (\(total.count))"
      lines.append(line)
    }
    return lines
  }

  /// `label  bar  amount`, the amount right-aligned after the widest bar.
  private func barLine(_ label: String, bar: Bar, amount: String, amountWidth: Int) -> String {
    "\(label)  \(bar.padded)  "
      + String(repeating: " ", count: amountWidth - amount.count) + amount
  }

  /// A bar as long as `amount` is of `largest`; any amount above zero shows at least one block.
  private func bar(
    _ amount: Money, of largest: Money, character: Character, color: (String) -> String
  ) -> Bar {
    guard largest > .zero, amount > .zero else { return Bar(text: "", length: 0) }
    let ratio = Double(amount.minorUnits) / Double(largest.minorUnits)
    let length = max(1, Int((ratio * Double(Self.barWidth)).rounded()))
    return Bar(text: color(String(repeating: character, count: length)), length: length)
  }

  /// `expense 12.50 'Lunch' on 2025-03-15 in Food`.
  func describe(_ transaction: LedgerTransaction) -> String {
    // NB: appended into room reserved once: each `+=` of an interpolation made a string and
    // grew the text (a scripted `ledger add` describes what it saved).
    var text = ""
    text.reserveCapacity(40 + transaction.memo.utf8.count + (transaction.category?.utf8.count ?? 0))
    text += transaction.kind.rawValue
    text += " "
    text += transaction.amount.formatted()
    if !transaction.memo.isEmpty {
      text += " '"
      text += transaction.memo
      text += "'"
    }
    text += " on "
    text += Day(transaction.date, in: timeZone).description
    if let category = transaction.category {
      text += " in "
      text += category
    }
    return text
  }

  /// `+1,000.00` for income, `-12.50` for an expense.
  static func signed(_ transaction: LedgerTransaction) -> String {
    (transaction.kind == .income ? "+" : "-") + transaction.amount.formatted()
  }
}

/// A chart's bar: its (maybe coloured) text and its length in characters.
private struct Bar {
  var text: String
  var length: Int

  /// The bar padded with spaces to the widest bar.
  var padded: String {
    text + String(repeating: " ", count: LedgerRenderer.barWidth - length)
  }
}
