import Foundation

/// Short ids, as git abbreviates hashes: the first hexadecimal digits of an id, enough of them
/// to tell it from the others shown, and at least ``minimumLength``.
///
/// A ref the user types is any prefix of an id's 32 hexadecimal digits, in any case, with or
/// without the UUID's dashes.
enum Ref {
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
    withUnsafeBytes(of: id.uuid) { bytes in
      bytes.reduce(UInt128.zero) { $0 << 8 | UInt128($1) }
    }
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
  static func length(forSorted keys: [UInt128]) -> Int {
    var length = minimumLength
    for (previous, next) in zip(keys, keys.dropFirst()) {
      length = max(length, commonDigits(previous, next) + 1)
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

  /// The ids whose digits start with `ref`.
  ///
  /// - Parameters:
  ///   - ref: What the user typed.
  ///   - ids: The ids to search.
  ///   - listing: The command that lists the ids' refs (`habit list`), for messages.
  /// - Returns: The matching ids, in the order of `ids`.
  /// - Throws: ``CommandError`` when `ref` is not hexadecimal digits.
  static func matches(_ ref: String, in ids: some Sequence<UUID>, listing: String)
    throws(CommandError) -> [UUID]
  {
    let typed = ref.lowercased().filter { $0 != "-" }
    guard !typed.isEmpty, typed.count <= 32, typed.allSatisfy(\.isHexDigit) else {
      throw CommandError(
        "'\(ref)' is not a ref",
        hints: ["a ref is the start of an id, in hexadecimal, as '\(listing)' shows"])
    }
    return ids.filter { digits(of: $0).hasPrefix(typed) }
  }
}

extension Ref {
  /// The one item whose id starts with `ref`.
  ///
  /// - Parameters:
  ///   - ref: What the user typed.
  ///   - items: The items to search.
  ///   - id: An item's id.
  ///   - label: How an item is named in the list of candidates of an ambiguous ref.
  ///   - noun: What the items are (`habit`), for messages.
  ///   - listing: The command that lists the items' refs (`habit list`), for messages.
  /// - Returns: The item.
  /// - Throws: ``CommandError`` when `ref` is not hexadecimal (with the ref of each item whose
  ///   label it is, as a hint), matches nothing, or matches several items (listing them).
  static func resolve<Item>(
    _ ref: String, in items: [Item], id: (Item) -> UUID, label: (Item) -> String, noun: String,
    listing: String
  ) throws(CommandError) -> Item {
    let found: [UUID]
    do {
      found = try matches(ref, in: items.map(id), listing: listing)
    } catch {
      // NB: a hint, never a lookup by name: the command still needs the ref.
      let named = items.filter {
        label($0).compare(ref, options: [.caseInsensitive]) == .orderedSame
      }
      guard !named.isEmpty else { throw error }
      let length = Ref.length(for: items.map(id))
      throw CommandError(
        error.message,
        hints: named.prefix(10).map {
          "the \(noun) '\(label($0))' has the ref \(short(id($0), length: length))"
        } + error.hints)
    }
    guard found.count <= 1 else {
      let length = Ref.length(for: found)
      let byID = Dictionary(items.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
      let shown = 10
      var hints = found.prefix(shown).compactMap { candidate in
        byID[candidate].map { "  \(short(candidate, length: length))  \(label($0))" }
      }
      if found.count > shown { hints.append("  … and \(found.count - shown) more") }
      throw CommandError(
        "the ref '\(ref)' is ambiguous: it matches \(found.count) \(noun)s", hints: hints)
    }
    guard let match = found.first, let item = items.first(where: { id($0) == match }) else {
      throw CommandError(
        "no \(noun) has the ref '\(ref)'",
        hints: ["'\(listing)' shows every \(noun) with its ref"])
    }
    return item
  }
}
