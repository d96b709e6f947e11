import Foundation
import Persistence

/// The model of the differential tests: a column of every supported type, optional and not,
/// indexes of each kind (plain, on a folded column, unique with `nil`s).
struct Sample: PersistentModel, Equatable {
  var id: Int
  var text: String = ""
  var note: String? = nil
  var int: Int = 0
  var big: Int64 = 0
  var real: Double = 0
  var maybeReal: Double? = nil
  var flag: Bool = false
  var maybeFlag: Bool? = nil
  var date: Date = Date(timeIntervalSinceReferenceDate: 0)
  var due: Date? = nil
  var kind: Kind = .article
  var uuid: UUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
  var data: Data = Data()
  var link: URL? = nil
  var code: Int? = nil

  static let schema = Schema<Sample>(
    table: "samples",
    columns: [
      Column(\.id, "id"),
      Column(\.text, "text", options: .searchable),
      Column(\.note, "note", options: .searchable),
      Column(\.int, "int"),
      Column(\.big, "big"),
      Column(\.real, "real"),
      Column(\.maybeReal, "maybe_real"),
      Column(\.flag, "flag"),
      Column(\.maybeFlag, "maybe_flag"),
      Column(\.date, "date"),
      Column(\.due, "due"),
      Column(\.kind, "kind"),
      Column(\.uuid, "uuid"),
      Column(\.data, "data"),
      Column(\.link, "link"),
      Column(\.code, "code"),
    ],
    indexes: [
      Index(\.real), Index(\.date), Index(\.text.caseFolded), Index(\.code, unique: true),
      Index(\.int, \.big),
    ]
  )

  /// Whether every stored bit is the same: strings by their UTF-8 bytes, doubles (and dates)
  /// by bit pattern, so that `-0.0` and `0.0`, or two spellings of "é", differ (`==` says they
  /// are equal).
  func isIdentical(to other: Sample) -> Bool {
    func same(_ lhs: String, _ rhs: String) -> Bool {
      lhs.utf8.count == rhs.utf8.count && Array(lhs.utf8) == Array(rhs.utf8)
    }
    func same(_ lhs: Double, _ rhs: Double) -> Bool { lhs.bitPattern == rhs.bitPattern }
    func same(_ lhs: Date, _ rhs: Date) -> Bool {
      same(lhs.timeIntervalSinceReferenceDate, rhs.timeIntervalSinceReferenceDate)
    }
    func same<T>(_ lhs: T?, _ rhs: T?, _ compare: (T, T) -> Bool) -> Bool {
      switch (lhs, rhs) {
      case (nil, nil): return true
      case (let left?, let right?): return compare(left, right)
      default: return false
      }
    }
    return id == other.id && same(text, other.text) && same(note, other.note, same)
      && int == other.int && big == other.big && same(real, other.real)
      && same(maybeReal, other.maybeReal, same) && flag == other.flag
      && maybeFlag == other.maybeFlag && same(date, other.date) && same(due, other.due, same)
      && kind == other.kind && uuid == other.uuid && data == other.data
      && link?.absoluteString == other.link?.absoluteString && code == other.code
  }

  /// The model as Swift source, its fields that differ from the defaults only.
  var source: String {
    let plain = Sample(id: id)
    var fields = ["id: \(id)"]
    func add(_ name: String, _ value: String, if differs: Bool) {
      if differs { fields.append("\(name): \(value)") }
    }
    add("text", literal(text), if: text != plain.text)
    add("note", note.map(literal) ?? "nil", if: note != nil)
    add("int", literal(int), if: int != 0)
    add("big", literal(big), if: big != 0)
    add("real", literal(real), if: real.bitPattern != 0)
    add("maybeReal", maybeReal.map(literal) ?? "nil", if: maybeReal != nil)
    add("flag", "\(flag)", if: flag)
    add("maybeFlag", maybeFlag.map { "\($0)" } ?? "nil", if: maybeFlag != nil)
    add("date", literal(date), if: date.timeIntervalSinceReferenceDate.bitPattern != 0)
    add("due", due.map(literal) ?? "nil", if: due != nil)
    add("kind", ".\(kind.rawValue)", if: kind != .article)
    add("uuid", "UUID(uuidString: \"\(uuid.uuidString)\")!", if: uuid != plain.uuid)
    add("data", "Data(\(Array(data)))", if: !data.isEmpty)
    add("link", link.map { "URL(string: \(literal($0.absoluteString)))" } ?? "nil", if: link != nil)
    add("code", code.map { "\($0)" } ?? "nil", if: code != nil)
    return "Sample(\(fields.joined(separator: ", ")))"
  }
}

extension Sample {
  init(row: Row<Sample>) throws {
    id = try row[\.id]
    text = try row[\.text]
    note = try row[\.note]
    int = try row[\.int]
    big = try row[\.big]
    real = try row[\.real]
    maybeReal = try row[\.maybeReal]
    flag = try row[\.flag]
    maybeFlag = try row[\.maybeFlag]
    date = try row[\.date]
    due = try row[\.due]
    kind = try row[\.kind]
    uuid = try row[\.uuid]
    data = try row[\.data]
    link = try row[\.link]
    code = try row[\.code]
  }
}

/// A string as a Swift literal: printable ASCII as is, everything else escaped, and long strings
/// shortened (their length said).
func literal(_ text: String) -> String {
  let scalars = text.unicodeScalars
  if scalars.count > 48 {
    let head = String(String.UnicodeScalarView(scalars.prefix(8)))
    return "\(literal(head)) + …(\(scalars.count) scalars, \(text.utf8.count) bytes)"
  }
  var result = "\""
  for scalar in scalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case " "..."~": result.unicodeScalars.append(scalar)
    default: result += "\\u{\(String(scalar.value, radix: 16))}"
    }
  }
  return result + "\""
}

/// An integer as Swift source, naming the bounds.
func literal<T: FixedWidthInteger>(_ value: T) -> String {
  switch value {
  case .max: return ".max"
  case .min: return ".min"
  case .max - 1: return ".max - 1"
  case .min + 1: return ".min + 1"
  default: return "\(value)"
  }
}

/// A double as Swift source that makes the same bits.
func literal(_ value: Double) -> String {
  if value.isNaN {
    return "Double(bitPattern: 0x\(String(value.bitPattern, radix: 16)))"
  }
  if value.isInfinite { return value < 0 ? "-.infinity" : ".infinity" }
  if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
  return "\(value)"
}

/// A date as Swift source that makes the same bits.
func literal(_ date: Date) -> String {
  "Date(timeIntervalSinceReferenceDate: \(literal(date.timeIntervalSinceReferenceDate)))"
}
