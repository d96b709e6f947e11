import Foundation

/// An import the user asked for: a file's bytes, what to import them into, and how.
///
/// ```swift
/// let data = try ImportFile.read(atPath: "bookmarks.html")
/// store.send(.importSubmitted(ImportRequest(scope: .links, file: "bookmarks.html", contents: data)))
/// ```
public struct ImportRequest: Equatable, Sendable {
  /// What the file is imported into: ``DataScope/links``, ``DataScope/ledger``, ``DataScope/habits`` (a
  /// Loop export only) or ``DataScope/everything`` (a whole Loop export).
  public var scope: DataScope
  /// The file's name or path, for messages.
  public var file: String
  /// The file's bytes.
  public var contents: Data
  /// The format given with `--format`; `nil` to detect it from the content.
  public var format: FileFormat?
  /// Whether to report what the import would do without writing anything (`--dry-run`).
  public var isDryRun: Bool
  /// How a ledger CSV writes dates and amounts; for a bank statement, when they are not the
  /// defaults, they take the place of its rules' `date-format` and `decimal-mark`.
  public var ledgerOptions: LedgerCSVOptions
  /// The rules of a bank statement (`FILE.rules` or `--rules-file`); `nil` to read Loop's own
  /// ledger CSV, or to infer a statement's rules (``StatementDetector``).
  public var rules: CSVRules?

  /// Creates a request.
  public init(
    scope: DataScope, file: String, contents: Data, format: FileFormat? = nil,
    isDryRun: Bool = false, ledgerOptions: LedgerCSVOptions = LedgerCSVOptions(),
    rules: CSVRules? = nil
  ) {
    self.scope = scope
    self.file = file
    self.contents = contents
    self.format = format
    self.isDryRun = isDryRun
    self.ledgerOptions = ledgerOptions
    self.rules = rules
  }
}

/// How far an import has got: `processed` of `total` entries written.
public struct ImportProgress: Equatable, Sendable {
  /// How many entries were processed (written, skipped or rejected).
  public var processed: Int
  /// How many entries the file holds.
  public var total: Int

  /// Creates a progress.
  public init(processed: Int, total: Int) {
    self.processed = processed
    self.total = total
  }
}

/// A file's entry that an import left out, and why.
public struct ImportRejection: Equatable, Sendable {
  /// The line of the file the entry starts on.
  public var line: Int
  /// Why it was left out, as a sentence.
  public var reason: String

  /// Creates a rejection.
  public init(line: Int, reason: String) {
    self.line = line
    self.reason = reason
  }
}

/// How many entries of each kind: what an import stored or an export wrote.
public struct EntryCounts: Equatable, Sendable {
  /// Categories of links.
  public var categories: Int
  /// Links.
  public var links: Int
  /// Comments on links.
  public var comments: Int
  /// Habits.
  public var habits: Int
  /// Completions of habits.
  public var completions: Int
  /// Ledger transactions.
  public var transactions: Int

  /// Creates counts.
  public init(
    categories: Int = 0, links: Int = 0, comments: Int = 0, habits: Int = 0,
    completions: Int = 0, transactions: Int = 0
  ) {
    self.categories = categories
    self.links = links
    self.comments = comments
    self.habits = habits
    self.completions = completions
    self.transactions = transactions
  }

  /// The non-zero counts as words, such as `1,200 links, 1 category`; `nothing` when all are
  /// zero.
  public var description: String {
    let parts = [
      (links, "link", "links"), (categories, "category", "categories"),
      (comments, "comment", "comments"), (habits, "habit", "habits"),
      (completions, "completion", "completions"), (transactions, "transaction", "transactions"),
    ]
    .filter { $0.0 > 0 }
    .map { "\(grouped($0.0)) \($0.0 == 1 ? $0.1 : $0.2)" }
    return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
  }
}

/// What an import did (or, in a dry run, would do): the closing summary.
public struct ImportReport: Equatable, Sendable {
  /// What the file was imported into.
  public var scope: DataScope
  /// The file's format.
  public var format: FileFormat
  /// Whether nothing was written.
  public var isDryRun: Bool
  /// How many entries the file holds (links, rows, or a Loop export's entries).
  public var entries: Int
  /// What was stored (or would be).
  public var imported: EntryCounts
  /// How many entries were skipped because they are saved already.
  public var duplicates: Int
  /// The entries left out as invalid, by line.
  public var rejected: [ImportRejection]
  /// The rows of a bank statement that are not transactions (a zero amount, a pending row a
  /// rule skips), by line, with the reason.
  public var skipped: [ImportRejection]
  /// The rules Loop inferred for a bank statement that came without; `nil` otherwise.
  public var inferredRules: CSVRules?
  /// How long the import took, by the `continuousClock` dependency.
  public var duration: Duration

  /// Creates a report.
  public init(
    scope: DataScope, format: FileFormat, isDryRun: Bool = false, entries: Int,
    imported: EntryCounts, duplicates: Int = 0, rejected: [ImportRejection] = [],
    skipped: [ImportRejection] = [], inferredRules: CSVRules? = nil, duration: Duration = .zero
  ) {
    self.scope = scope
    self.format = format
    self.isDryRun = isDryRun
    self.entries = entries
    self.imported = imported
    self.duplicates = duplicates
    self.rejected = rejected
    self.skipped = skipped
    self.inferredRules = inferredRules
    self.duration = duration
  }

  /// Entries processed per second, or `nil` when the import took no measurable time.
  public var rate: Double? {
    let seconds =
      Double(duration.components.seconds)
      + Double(duration.components.attoseconds) / 1e18
    return seconds > 0 ? Double(entries) / seconds : nil
  }

  /// The summary as one sentence: imported, skipped (duplicates, and a statement's rows that
  /// are not transactions), rejected.
  ///
  /// For example `Imported 3 links, 2 categories; skipped 1 duplicate; rejected 1.`,
  /// `Imported 5 transactions; skipped 0 duplicates, 2 rows; rejected 0.`, or
  /// `Would import …` in a dry run.
  public var summary: String {
    let verb = isDryRun ? "Would import" : "Imported"
    var duplicates =
      "skipped \(grouped(self.duplicates)) duplicate\(self.duplicates == 1 ? "" : "s")"
    if !skipped.isEmpty {
      duplicates += ", \(grouped(skipped.count)) row\(skipped.count == 1 ? "" : "s")"
    }
    return "\(verb) \(imported.description); \(duplicates); rejected \(grouped(rejected.count))."
  }
}

/// A count with its thousands grouped by commas, whatever the locale: `100,000`.
private func grouped(_ count: Int) -> String {
  let digits = String(count.magnitude)
  var text = count < 0 ? "-" : ""
  for (offset, digit) in digits.enumerated() {
    if offset > 0 && (digits.count - offset) % 3 == 0 { text.append(",") }
    text.append(digit)
  }
  return text
}

// MARK: - Dumps

// NB: recordings compare dumps of every action: a request without rules, and a report of no
// bank statement, dump as they did before statements were read, so that every recording made
// before still replays identically.

extension ImportRequest: CustomReflectable {
  /// The request's fields; `rules` only when there are some.
  public var customMirror: Mirror {
    var children: [(label: String?, value: Any)] = [
      ("scope", scope), ("file", file), ("contents", contents), ("format", format as Any),
      ("isDryRun", isDryRun), ("ledgerOptions", ledgerOptions),
    ]
    if let rules { children.append(("rules", rules)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension ImportReport: CustomReflectable {
  /// The report's fields; `skipped` and `inferredRules` only when a statement has them.
  public var customMirror: Mirror {
    var children: [(label: String?, value: Any)] = [
      ("scope", scope), ("format", format), ("isDryRun", isDryRun), ("entries", entries),
      ("imported", imported), ("duplicates", duplicates), ("rejected", rejected),
    ]
    if !skipped.isEmpty { children.append(("skipped", skipped)) }
    if let inferredRules { children.append(("inferredRules", inferredRules)) }
    children.append(("duration", duration))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
