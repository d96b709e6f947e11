import Foundation

/// A ref the user typed: the start of an id, as a listing shows it, or a name.
///
/// A ref is any start of an id's 32 hexadecimal digits, in any case, with or without the
/// UUID's dashes. Listings show short ids as git abbreviates hashes: the first digits of an
/// id, enough of them to tell it from the others shown, and at least ``minimumLength``. Where a
/// ref goes a name may stand instead: the whole name of an item, a unique start of it or a unique
/// part of it, in any case (``resolve(in:)``).
///
/// ``Argument/ref(_:)`` reads one before a command's handler runs; the session finds the item
/// it names (`Session+Refs.swift`), the one place that looks refs up.
struct Ref: Sendable, Hashable, CustomStringConvertible {
  /// The word as typed, for messages and for a lookup the app makes of it.
  let text: String
  /// Its hexadecimal digits, lowercased, without dashes; `nil` when the word is not the start of
  /// an id (it can only be a name).
  let digits: String?

  /// The ref `text` writes.
  ///
  /// - Parameters:
  ///   - text: What the user typed.
  ///   - noun: What the ref names, for the message: its listing shows the refs.
  /// - Throws: ``CommandError`` when `text` is blank: it names nothing.
  init(_ text: String, naming noun: Noun) throws(CommandError) {
    guard text.contains(where: { !$0.isWhitespace }) else {
      throw CommandError(
        "'\(text)' is not a ref or a name",
        hints: ["a ref is the start of an id, in hexadecimal, as '\(noun.rawValue) list' shows"])
    }
    let digits = text.lowercased().filter { $0 != "-" }
    self.text = text
    self.digits =
      !digits.isEmpty && digits.count <= 32 && digits.allSatisfy(\.isHexDigit) ? digits : nil
  }

  /// The word as typed.
  var description: String { text }

  /// The ids whose digits start with the ref's, in the order of `ids`.
  func matches(in ids: some Sequence<UUID>) -> [UUID] {
    guard let digits else { return [] }
    return ids.filter { Ref.digits(of: $0).hasPrefix(digits) }
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
///
/// A noun declares its candidates once (`Session+Refs.swift`): its items, an item's id and
/// name. ``Ref/resolve(in:)`` is the one lookup of every noun, by ref or by name.
struct RefCandidates<Item> {
  /// The items.
  var items: [Item]
  /// An item's id.
  var id: (Item) -> UUID
  /// An item's name, matched against a word typed where a ref goes: a habit's name, a link's
  /// title, a transaction's memo.
  var name: (Item) -> String
  /// How an item is shown in the list of an ambiguous word's candidates.
  var label: (Item) -> String
  /// What an item is called in messages: `habit`, `transaction`.
  var itemName: String
  /// The noun whose listing shows the items' refs.
  var noun: Noun

  /// Candidates whose items show as their names.
  init(
    items: [Item], id: @escaping (Item) -> UUID, name: @escaping (Item) -> String,
    label: ((Item) -> String)? = nil, itemName: String, noun: Noun
  ) {
    self.items = items
    self.id = id
    self.name = name
    self.label = label ?? name
    self.itemName = itemName
    self.noun = noun
  }

  /// The command that lists the items with their refs: `habit list`.
  var listing: String { "\(noun.rawValue) list" }
}

/// The item a word names, and what to tell the user when the word named another item too.
struct Resolved<Item> {
  /// The item the word names.
  var item: Item
  /// A sentence saying which of two items the word was taken to name, when it is both the start
  /// of one's id and (the start of) another's name; `nil` otherwise.
  var note: String?
}

extension Ref {
  /// The one item of `candidates` the word names.
  ///
  /// In this order: the item whose whole name it is (ignoring case); the one item whose id
  /// starts with it; the one item whose name starts with it; the one item whose name contains
  /// it. A word that is both the start of an id and an item's whole name takes the name; a word
  /// that starts one item's id and another's name takes the ref; both say which they took
  /// (``Resolved/note``).
  ///
  /// - Throws: ``CommandError`` when the word names nothing, or names several items at the
  ///   first of those steps that finds any (listing them with their refs).
  func resolve<Item>(in candidates: RefCandidates<Item>) throws(CommandError) -> Resolved<Item> {
    let items = candidates.items
    let byRef = matches(in: items.map(candidates.id))
    let byName = nameMatches(in: candidates)
    let noun = candidates.itemName
    if byName.kind == .whole {
      guard byName.items.count == 1, let item = byName.items.first else {
        throw ambiguity("the name '\(text)'", byName.items, in: candidates)
      }
      let others = byRef.filter { $0 != candidates.id(item) }
      let note =
        others.isEmpty
        ? nil
        : "'\(text)' is the name of the \(noun) '\(candidates.label(item))'; "
          + "it also starts the ref of \(count(others.count, noun)): took the name"
      return Resolved(item: item, note: note)
    }
    if !byRef.isEmpty {
      let byID = Dictionary(
        items.map { (candidates.id($0), $0) }, uniquingKeysWith: { first, _ in first })
      let found = byRef.compactMap { byID[$0] }
      guard found.count == 1, let item = found.first else {
        throw ambiguity("the ref '\(text)'", found, in: candidates)
      }
      let others = byName.items.filter { candidates.id($0) != candidates.id(item) }
      let note =
        others.isEmpty
        ? nil
        : "'\(text)' starts the ref of the \(noun) '\(candidates.label(item))' and the name of "
          + "\(count(others.count, "other \(noun)")): took the ref"
      return Resolved(item: item, note: note)
    }
    guard !byName.items.isEmpty else {
      throw CommandError(
        "no \(noun) has the ref or name '\(text)'",
        hints: ["'\(candidates.listing)' shows every \(noun) with its ref"])
    }
    guard byName.items.count == 1, let item = byName.items.first else {
      throw ambiguity("the name '\(text)'", byName.items, in: candidates)
    }
    return Resolved(item: item, note: nil)
  }

  /// How closely a word matches names, best first.
  private enum NameMatch {
    case whole, start, part, none
  }

  /// The items whose names match the word most closely: the whole name, else its start, else a
  /// part of it, ignoring case.
  private func nameMatches<Item>(
    in candidates: RefCandidates<Item>
  ) -> (kind: NameMatch, items: [Item]) {
    var whole: [Item] = []
    var start: [Item] = []
    var part: [Item] = []
    for item in candidates.items {
      let name = candidates.name(item)
      guard let range = name.range(of: text, options: .caseInsensitive) else { continue }
      if range == name.startIndex..<name.endIndex {
        whole.append(item)
      } else if range.lowerBound == name.startIndex {
        start.append(item)
      } else {
        part.append(item)
      }
    }
    if !whole.isEmpty { return (.whole, whole) }
    if !start.isEmpty { return (.start, start) }
    if !part.isEmpty { return (.part, part) }
    return (.none, [])
  }

  /// The error of a word that names several items, listing up to 10 of them with their refs.
  private func ambiguity<Item>(
    _ what: String, _ found: [Item], in candidates: RefCandidates<Item>
  ) -> CommandError {
    let length = Ref.length(for: found.map(candidates.id))
    let shown = 10
    var hints = found.prefix(shown).map {
      "  \(Ref.short(candidates.id($0), length: length))  \(candidates.label($0))"
    }
    if found.count > shown { hints.append("  … and \(found.count - shown) more") }
    return CommandError(
      "\(what) is ambiguous: it matches \(found.count) \(candidates.itemName)s", hints: hints)
  }

  /// `1 habit`, `2 habits`.
  private func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }
}
