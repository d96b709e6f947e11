import Synchronization

/// The process-wide cache of layouts, one entry per enum type a case path was built for.
///
/// ## Ordering
/// A reader never takes a lock: it loads the newest table with `.acquiring` and looks the type
/// up. A writer, under `tables`' lock, builds a whole new table (the old entries and the new
/// one), then publishes it with a `.releasing` store; so a reader that sees the new table sees
/// every entry in it fully built. Tables and layouts are immutable once published.
///
/// NB: the atomic holds the table unretained, so a table is never freed: a reader may still be
/// looking in an older one. `tables` keeps them all, one per enum type cached, each the size of
/// the cache at the time: the memory is quadratic in the number of enum types, which is the
/// number of distinct `Root` types of `.case` paths in the program (tens), and is never
/// repaid; that is the price of a lock-free read on every reducer body built.
extension EnumLayout {
  /// The layout of `type`, read once and cached; `nil` when `type` is not an enum or its
  /// reflection records are missing or not as expected (callers then fall back to `Mirror`).
  ///
  /// - Complexity: O(1) without a lock once `type` has been read: a reducer's body, and the case
  ///   paths in it, may be built for every action.
  @usableFromInline
  static func of(_ type: Any.Type) -> EnumLayout? {
    // NB: metadata is unique per type and never freed, so its address is the type's key.
    let key = UInt(bitPattern: TypeMetadata(type).address)
    if let known = table.load(ordering: .acquiring)?.takeUnretainedValue().layout(for: key) {
      return known
    }
    return tables.withLock { tables in
      // NB: another thread may have added it since the lock-free look.
      if let known = tables.last?.layout(for: key) { return known }
      let layout = EnumLayout(type)
      let next = LayoutTable(adding: (key, layout), to: tables.last)
      tables.append(next)
      table.store(Unmanaged.passUnretained(next), ordering: .releasing)
      return layout
    }
  }

  /// The newest table of layouts, read without a lock.
  private static let table = Atomic<Unmanaged<LayoutTable>?>(nil)
  /// Every table so far, the newest last; the lock serializes additions.
  private static let tables = Mutex<[LayoutTable]>([])
}

/// An immutable hash table from type metadata addresses to their layouts (open addressing,
/// linear probing, at most half full); a type known not to have a layout maps to `nil`, so it
/// is read only once too.
private final class LayoutTable: @unchecked Sendable {
  // NB: @unchecked for `EnumLayout`'s raw pointers; a table never changes once built.
  private let keys: [UInt]
  private let layouts: [EnumLayout?]

  /// A table with the entries of `table` and `entry`.
  init(adding entry: (key: UInt, layout: EnumLayout?), to table: LayoutTable?) {
    var entries = table?.entries ?? []
    entries.append(entry)
    var capacity = 8
    while capacity < 2 * entries.count { capacity *= 2 }
    var keys = [UInt](repeating: 0, count: capacity)
    var layouts = [EnumLayout?](repeating: nil, count: capacity)
    for (key, layout) in entries {
      var slot = Self.slot(of: key, capacity: capacity)
      while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
      keys[slot] = key
      layouts[slot] = layout
    }
    self.keys = keys
    self.layouts = layouts
  }

  /// The layout stored for `key`: `.some(nil)` for a type known not to have one, `nil` for a
  /// type not in the table.
  func layout(for key: UInt) -> EnumLayout?? {
    var slot = Self.slot(of: key, capacity: keys.count)
    while keys[slot] != 0 {
      if keys[slot] == key { return .some(layouts[slot]) }
      slot = (slot + 1) & (keys.count - 1)
    }
    return nil
  }

  private var entries: [(key: UInt, layout: EnumLayout?)] {
    zip(keys, layouts).filter { $0.0 != 0 }.map { ($0.0, $0.1) }
  }

  /// Where probing for `key` starts (Fibonacci hashing of the address).
  private static func slot(of key: UInt, capacity: Int) -> Int {
    let hash = UInt64(key) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: hash >> UInt64(64 - capacity.trailingZeroBitCount))
  }
}
