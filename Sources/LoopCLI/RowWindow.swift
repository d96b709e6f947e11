/// Which rows a listing prints: after the first `--offset N`, at most `--limit N`.
///
/// ``Option/window`` reads it from a listing's options.
struct RowWindow: Equatable, Sendable {
  /// How many rows to skip.
  var offset = 0
  /// The most rows to print, or `nil` for every one.
  var limit: Int?

  /// The whole list.
  static let all = RowWindow()

  /// A window of these values.
  init(offset: Int = 0, limit: Int? = nil) {
    self.offset = offset
    self.limit = limit
  }

  /// The rows of the next page of a list printed a page at a time that are in the window; the
  /// window then starts after them, so each page gets what the earlier ones left.
  ///
  /// - Parameter rows: The page's rows.
  /// - Returns: Those in the window, as a slice of `rows` (a page's rows are not copied).
  mutating func take<Rows: Collection>(_ rows: Rows) -> Rows.SubSequence {
    let skipped = min(offset, rows.count)
    offset -= skipped
    let rest = rows.dropFirst(skipped)
    guard let limit else { return rest }
    let taken = rest.prefix(limit)
    self.limit = limit - taken.count
    return taken
  }

  /// Whether the window has taken every row it can: a list printed a page at a time can stop.
  var isFull: Bool { limit == 0 }

  /// The rows of `rows` in the window.
  func apply<Element>(to rows: [Element]) -> [Element] {
    let start = min(offset, rows.count)
    let end = limit.map { min(rows.count, start + min($0, rows.count)) } ?? rows.count
    return Array(rows[start..<end])
  }
}
