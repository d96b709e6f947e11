import Foundation

/// A ref the user typed, checked: the start of an id, as a listing shows it.
///
/// A ref is any start of an id's 32 hexadecimal digits, in any case, with or without the
/// UUID's dashes. Listings show short ids as git abbreviates hashes: the first digits of an
/// id, enough of them to tell it from the others shown, and at least ``minimumLength``.
///
/// ``Argument/ref(_:)`` reads one before a command's handler runs; the session finds the item
/// it names (`Session+Refs.swift`), the one place that looks refs up.
struct Ref: Sendable, Hashable, CustomStringConvertible {
  /// The word as typed, for messages and for a lookup the app makes of it.
  let text: String
  /// Its hexadecimal digits, lowercased, without dashes.
  let digits: String

  /// The ref `text` writes.
  ///
  /// - Parameters:
  ///   - text: What the user typed.
  ///   - noun: What the ref names, for the message: its listing shows the refs.
  /// - Throws: ``CommandError`` when `text` is not hexadecimal digits (at most 32, dashes
  ///   aside); the error's ``CommandError/misreadRef`` lets the session add the refs of the items
  ///   named `text` as hints.
  init(_ text: String, naming noun: Noun) throws(CommandError) {
    let digits = text.lowercased().filter { $0 != "-" }
    guard !digits.isEmpty, digits.count <= 32, digits.allSatisfy(\.isHexDigit) else {
      var error = CommandError(
        "'\(text)' is not a ref",
        hints: ["a ref is the start of an id, in hexadecimal, as '\(noun.rawValue) list' shows"])
      error.misreadRef = MisreadRef(word: text, noun: noun)
      throw error
    }
    self.text = text
    self.digits = digits
  }

  /// The word as typed.
  var description: String { text }

  /// The ids whose digits start with the ref's, in the order of `ids`.
  func matches(in ids: some Sequence<UUID>) -> [UUID] {
    ids.filter { Ref.digits(of: $0).hasPrefix(digits) }
  }

  /// The fewest digits a short id shows: 7, as git does.
  static let minimumLength = 7

  /// The 32 hexadecimal digits of an id, lowercased, without dashes.
  static func digits(of id: UUID) -> String {
    // NB: from the bytes: formatting the UUID's string, lowercasing it and dropping its dashes
    // cost more than the rest of printing a ref.
    withUnsafeBytes(of: id.uuid) { bytes in
      String(unsafeUninitializedCapacity: 32) { digits in
        for (offset, byte) in bytes.enumerated() {
          digits[2 * offset] = hexDigits[Int(byte >> 4)]
          digits[2 * offset + 1] = hexDigits[Int(byte & 0xF)]
        }
        return 32
      }
    }
  }

  /// The lowercase hexadecimal digits' UTF-8 code units.
  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// The id's 16 bytes as one big-endian number: ids compare as their digits do, and two ids
  /// share as many leading digits as their numbers share leading zero bits in fours.
  static func key(of id: UUID) -> UInt128 {
    withUnsafeBytes(of: id.uuid) { UInt128(bigEndian: $0.loadUnaligned(as: UInt128.self)) }
  }

  /// How many leading hexadecimal digits two ids (as ``key(of:)``) share.
  static func commonDigits(_ lhs: UInt128, _ rhs: UInt128) -> Int {
    (lhs ^ rhs).leadingZeroBitCount / 4
  }

  /// How many digits tell every id of `ids` apart (at least ``minimumLength``).
  ///
  /// - Complexity: O(*n* log *n*).
  static func length(for ids: some Sequence<UUID>) -> Int {
    length(forSorted: ids.map(key(of:)).sorted())
  }

  /// How many digits tell apart every id of `keys` (``key(of:)``, ascending).
  ///
  /// - Complexity: O(*n*).
  static func length(forSorted keys: some Sequence<UInt128>) -> Int {
    var length = minimumLength
    var previous: UInt128?
    for key in keys {
      if let previous { length = max(length, commonDigits(previous, key) + 1) }
      previous = key
    }
    return min(length, 32)
  }

  /// The short id of `id` with `length` digits.
  static func short(_ id: UUID, length: Int) -> String {
    // NB: only the digits shown are made: a listing makes a ref for each of its rows.
    let count = min(max(length, 0), 32)
    return withUnsafeBytes(of: id.uuid) { bytes in
      String(unsafeUninitializedCapacity: count) { digits in
        for offset in 0..<count {
          let byte = bytes[offset / 2]
          digits[offset] = hexDigits[Int(offset.isMultiple(of: 2) ? byte >> 4 : byte & 0xF)]
        }
        return count
      }
    }
  }
}

/// The items a ref may name (the loaded habits, say), and how messages name them.
struct RefCandidates<Item> {
  /// The items.
  var items: [Item]
  /// An item's id.
  var id: (Item) -> UUID
  /// An item's name: in the list of an ambiguous ref's candidates, and matched against a name
  /// typed where a ref goes.
  var label: (Item) -> String
  /// What an item is called in messages: `habit`, `transaction`.
  var itemName: String
  /// The noun whose listing shows the items' refs.
  var noun: Noun

  /// The command that lists the items with their refs: `habit list`.
  var listing: String { "\(noun.rawValue) list" }
}

extension Ref {
  /// The one item of `candidates` whose id starts with the ref.
  ///
  /// - Throws: ``CommandError`` when the ref matches nothing, or matches several items
  ///   (listing them).
  func resolve<Item>(in candidates: RefCandidates<Item>) throws(CommandError) -> Item {
    let items = candidates.items
    let found = matches(in: items.map(candidates.id))
    let noun = candidates.itemName
    guard found.count <= 1 else {
      let length = Ref.length(for: found)
      let byID = Dictionary(
        items.map { (candidates.id($0), $0) }, uniquingKeysWith: { first, _ in first })
      let shown = 10
      var hints = found.prefix(shown).compactMap { candidate in
        byID[candidate].map {
          "  \(Ref.short(candidate, length: length))  \(candidates.label($0))"
        }
      }
      if found.count > shown { hints.append("  … and \(found.count - shown) more") }
      throw CommandError(
        "the ref '\(text)' is ambiguous: it matches \(found.count) \(noun)s", hints: hints)
    }
    guard let match = found.first, let item = items.first(where: { candidates.id($0) == match })
    else {
      throw CommandError(
        "no \(noun) has the ref '\(text)'",
        hints: ["'\(candidates.listing)' shows every \(noun) with its ref"])
    }
    return item
  }

  /// What to tell someone who typed an item's name where its ref goes: the ref of each item
  /// (up to 10) whose label is `word`, ignoring case.
  ///
  /// NB: a hint, never a lookup by name: the command still needs the ref.
  ///
  /// - Parameters:
  ///   - word: What the user typed, which is no ref.
  ///   - candidates: The items it may name.
  /// - Returns: One hint per item named `word`, none when no item is.
  static func hints<Item>(naming word: String, in candidates: RefCandidates<Item>) -> [String] {
    let named = candidates.items.filter {
      candidates.label($0).compare(word, options: [.caseInsensitive]) == .orderedSame
    }
    guard !named.isEmpty else { return [] }
    let length = Ref.length(for: candidates.items.map(candidates.id))
    return named.prefix(10).map {
      "the \(candidates.itemName) '\(candidates.label($0))' has the ref "
        + short(candidates.id($0), length: length)
    }
  }
}

/// A word read where a ref goes that is no ref, and the noun whose items the ref was to name:
/// the session adds, as hints, the refs of the items that word names (`habit done Read`).
struct MisreadRef: Sendable, Equatable {
  /// What the user typed.
  var word: String
  /// The noun whose item the ref was to name.
  var noun: Noun
}
