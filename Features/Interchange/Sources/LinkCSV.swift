import Foundation
import LinkClient

/// Links as CSV: a header naming the columns (`title,url[,category][,memo][,created]`, in any
/// order), then one link per record.
///
/// ```csv
/// title,url,category,memo,created
/// "Swift, the language",https://swift.org,Dev,"Two
/// lines",2025-03-15T01:00:00Z
/// ```
///
/// `category` is a category's name, `created` an ISO 8601 date (see ``Timestamp/date(from:)``)
/// or blank.
public enum LinkCSV {
  /// The columns, in the order Loop writes them.
  public static let columns = ["title", "url", "category", "memo", "created"]

  /// Reads links from CSV text.
  ///
  /// A record with the wrong number of fields, or a `created` that is not a date, is rejected
  /// with its line; the others are returned for the links client to check.
  ///
  /// - Parameters:
  ///   - text: The file's text.
  ///   - file: The file's name, for errors.
  /// - Returns: The links, and the rejected records.
  /// - Throws: What ``CSV/parse(_:file:)`` throws, and
  ///   ``InterchangeError/invalidHeader(file:reason:)`` without `title` and `url`.
  public static func parse(_ text: String, file: String) throws(InterchangeError) -> (
    links: [ImportedLink], rejected: [ImportRejection]
  ) {
    let table = try CSV.parse(text, file: file)
    let columns = try Columns(
      header: table.header, known: Self.columns, required: ["title", "url"], kind: "link CSV",
      file: file)
    var links: [ImportedLink] = []
    var rejected: [ImportRejection] = []
    links.reserveCapacity(table.records.count)
    let titleColumn = columns.position(of: "title")
    let urlColumn = columns.position(of: "url")
    let categoryColumn = columns.position(of: "category")
    let memoColumn = columns.position(of: "memo")
    let createdColumn = columns.position(of: "created")
    for record in table.records {
      if let mismatch = columns.mismatch(record) {
        rejected.append(ImportRejection(line: record.line, reason: mismatch))
        continue
      }
      var createdAt: Date?
      if let created = columns.optionalField(at: createdColumn, in: record.fields) {
        guard let date = Timestamp.date(from: created) else {
          rejected.append(
            ImportRejection(
              line: record.line,
              reason: "'\(created)' is not a date: write it as 2025-03-15 or 2025-03-15T10:00:00Z"))
          continue
        }
        createdAt = date
      }
      links.append(
        ImportedLink(
          line: record.line, title: columns.field(at: titleColumn, in: record.fields) ?? "",
          url: columns.field(at: urlColumn, in: record.fields) ?? "",
          category: columns.optionalField(at: categoryColumn, in: record.fields),
          memo: columns.optionalField(at: memoColumn, in: record.fields), createdAt: createdAt))
    }
    return (links, rejected)
  }

  /// Writes links as CSV, in the archive's order, with every column.
  ///
  /// - Parameter archive: The links and their categories (comments are not written).
  /// - Returns: The text.
  public static func write(_ archive: LinkArchive) -> String {
    let names = Dictionary(
      archive.categories.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    let rows = archive.links.map { link in
      [
        link.title, link.url.absoluteString, link.categoryID.flatMap { names[$0] } ?? "",
        link.memo ?? "", Timestamp.string(from: link.createdAt),
      ]
    }
    return CSV.write(header: columns, rows: rows)
  }
}
