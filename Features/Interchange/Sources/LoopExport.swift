import Foundation
import HabitClient
import LedgerClient
import LinkClient

/// Loop's own file format: a versioned JSON object with every model of the domains it covers.
///
/// The models keep their own field names, ids included; importing an export into an empty
/// database gives back the very same data.
///
/// ```json
/// {
///   "categories" : [ { "createdAt" : "2025-03-15T01:00:00Z", "id" : "…", "name" : "Dev" } ],
///   "comments" : [ ],
///   "exportedAt" : "2025-03-15T01:00:00Z",
///   "format" : "loop-export",
///   "links" : [ … ],
///   "version" : 1
/// }
/// ```
///
/// A domain's export has only its keys (`categories`, `links` and `comments`; `habits` and
/// `completions`; `transactions`); the whole database's has all of them. Dates are ISO 8601
/// in UTC with as many fraction digits as make them exact (see ``Timestamp``); amounts are
/// integer minor units; days are `yyyy-MM-dd`. Keys are sorted, so the same data always gives
/// the same file.
public struct LoopExport: Equatable, Sendable, Codable {
  /// The value of ``format`` in every Loop export: `loop-export`.
  public static let formatName = "loop-export"
  /// The version this Loop writes and reads: 1.
  public static let currentVersion = 1

  /// Always ``formatName``.
  public var format: String
  /// The version of the format.
  public var version: Int
  /// When the export was made.
  public var exportedAt: Date
  /// The categories of links, by `createdAt` then id.
  public var categories: [Category]?
  /// The links, by `createdAt` then id.
  public var links: [Link]?
  /// The comments on links, by `createdAt` then id.
  public var comments: [Comment]?
  /// The habits, in list order.
  public var habits: [Habit]?
  /// The habits' completions, grouped by habit, by day.
  public var completions: [Completion]?
  /// The ledger's transactions, newest first.
  public var transactions: [LedgerTransaction]?

  /// Creates an export of the domains given.
  ///
  /// - Parameters:
  ///   - exportedAt: When it is made.
  ///   - links: The links domain, if exported.
  ///   - habits: The habits, if exported.
  ///   - transactions: The ledger's transactions, if exported.
  public init(
    exportedAt: Date, links: LinkArchive? = nil, habits: HabitArchive? = nil,
    transactions: [LedgerTransaction]? = nil
  ) {
    self.format = Self.formatName
    self.version = Self.currentVersion
    self.exportedAt = exportedAt
    self.categories = links?.categories
    self.links = links?.links
    self.comments = links?.comments
    self.habits = habits?.habits
    self.completions = habits?.completions
    self.transactions = transactions
  }

  /// The links domain's part, or `nil` when the export has none.
  public var linkArchive: LinkArchive? {
    guard categories != nil || links != nil || comments != nil else { return nil }
    return LinkArchive(categories: categories ?? [], links: links ?? [], comments: comments ?? [])
  }

  /// The habits' part, or `nil` when the export has none.
  public var habitArchive: HabitArchive? {
    guard habits != nil || completions != nil else { return nil }
    return HabitArchive(habits: habits ?? [], completions: completions ?? [])
  }

  /// How many entries it holds, in every domain.
  public var entryCount: Int {
    [
      categories?.count, links?.count, comments?.count, habits?.count, completions?.count,
      transactions?.count,
    ].reduce(0) { $0 + ($1 ?? 0) }
  }

  /// The export as JSON: pretty-printed, keys sorted, dates as exact ISO 8601.
  ///
  /// - Returns: The file's bytes.
  /// - Throws: `EncodingError` when a value cannot be encoded (a date that is not finite).
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(Timestamp.string(from: date))
    }
    var data = try encoder.encode(self)
    data.append(UInt8(ascii: "\n"))
    return data
  }

  /// Reads an export.
  ///
  /// The format and version are checked before the rest is decoded.
  ///
  /// - Parameters:
  ///   - text: The file's text.
  ///   - file: The file's name, for errors.
  /// - Returns: The export.
  /// - Throws: ``InterchangeError/truncated(file:line:reason:)`` when the JSON stops before
  ///   its objects close, ``InterchangeError/notFormat(file:format:reason:)`` when it is not
  ///   JSON or not a Loop export, ``InterchangeError/unsupportedVersion(file:version:)``, and
  ///   ``InterchangeError/invalidExport(file:reason:)`` naming the entry that does not decode.
  public static func decode(_ text: String, file: String) throws(InterchangeError) -> LoopExport {
    let data = Data(text.utf8)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = Timestamp.date(from: text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
      }
      return date
    }
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: data)
    } catch {
      if let line = unclosedLine(in: text) {
        throw .truncated(
          file: file, line: line, reason: "the JSON stops before its objects and lists close")
      }
      throw .notFormat(
        file: file, format: .json,
        reason: "it is not a JSON object with \"format\": \"\(formatName)\"")
    }
    guard header.format == formatName else {
      throw .notFormat(
        file: file, format: .json,
        reason: "its \"format\" is '\(header.format)', not '\(formatName)'")
    }
    guard header.version <= currentVersion else {
      throw .unsupportedVersion(file: file, version: header.version)
    }
    do {
      return try decoder.decode(LoopExport.self, from: data)
    } catch let error as DecodingError {
      throw .invalidExport(file: file, reason: describe(error))
    } catch {
      // NB: a model's own check (a habit's blank name) ends its sentence; the error adds one.
      var reason = String(describing: error)
      if reason.hasSuffix(".") { reason.removeLast() }
      throw .invalidExport(file: file, reason: reason)
    }
  }

  /// The fields read first, to check the file is an export this Loop can read.
  private struct Header: Decodable {
    var format: String
    var version: Int
  }

  /// The last line with text, when the text ends inside a string or with a bracket still open;
  /// `nil` when every bracket closes.
  private static func unclosedLine(in text: String) -> Int? {
    var open = 0
    var line = 1
    var lastLine = 1
    var inString = false
    var escaped = false
    for byte in text.utf8 {
      if byte == UInt8(ascii: "\n") { line += 1 }
      if byte > 0x20 { lastLine = line }
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): open += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"): open -= 1
      default: break
      }
    }
    return inString || open > 0 ? lastLine : nil
  }

  /// `links[3].url: the reason`, from a decoding error.
  private static func describe(_ error: DecodingError) -> String {
    let (path, reason): ([any CodingKey], String) =
      switch error {
      case .keyNotFound(let key, let context):
        (context.codingPath + [key], "is missing")
      case .typeMismatch(let type, let context):
        (context.codingPath, "is not a \(type)")
      case .valueNotFound(let type, let context):
        (context.codingPath, "is null, not a \(type)")
      case .dataCorrupted(let context):
        (context.codingPath, context.debugDescription)
      @unknown default:
        ([], String(describing: error))
      }
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text.isEmpty ? reason : "\(text) \(reason)"
  }
}
