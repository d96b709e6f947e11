import AppFeature
import Categories
import CategoryClient
import Foundation
import HabitClient
import Habits
import Ledger
import LedgerClient
import LinkClient
import LinkList
import Loop
import Persistence
import Synchronization

import struct LinkClient.Comment

// NB: every lookup the commands make of a ref or a name is here; of the links, every call to
// their lookups (``LinkList/LinkLookup``).
extension Session {
  // MARK: - Habits

  /// The habit `ref` names (by ref or by name), loading the habits first if needed.
  func habit(_ ref: Ref) async throws(CommandError) -> HabitHistory {
    try await load(.habit)
    return resolve(try ref.resolve(in: habitCandidates))
  }

  /// The loaded habits, named by their names.
  private var habitCandidates: RefCandidates<HabitHistory> {
    RefCandidates(
      items: store.state.habits.habits.elements, id: \.id.rawValue, name: \.habit.name,
      itemName: "habit", noun: .habit)
  }

  /// The short ref of a habit among the loaded ones.
  func shortRef(of id: Habit.ID) -> String {
    let length = Self.refLength(
      of: store.reading { $0.habits.habits }, in: &refLengths[.habit, default: RefLengthCache()])
    return Ref.short(id.rawValue, length: length)
  }

  /// The ref length of `habits`, kept in `cache`.
  ///
  /// NB: nonisolated, and read through stored properties: a closure made on the main actor
  /// checks the executor each time it runs, and `HabitHistory.id` copied each habit it read.
  nonisolated static func refLength(
    of habits: IdentifiedArrayOf<HabitHistory>, in cache: inout RefLengthCache
  ) -> Int {
    cache.length(of: habits, id: { $0.habit.id.rawValue }, rawID: \.rawValue)
  }

  // MARK: - Every noun

  /// The item a word resolved to, the note of which item it took printed first, when it names
  /// two (``Ref/resolve(in:)``).
  private func resolve<Item>(_ resolved: Resolved<Item>) -> Item {
    if let note = resolved.note { console.printError("note: \(note)") }
    return resolved.item
  }

  // MARK: - Transactions

  /// The transaction `ref` names, loading the ledger first if needed.
  func transaction(_ ref: Ref) async throws(CommandError) -> LedgerTransaction {
    try await load(.ledger)
    return resolve(try ref.resolve(in: transactionCandidates))
  }

  /// The loaded transactions, named by their memos.
  private var transactionCandidates: RefCandidates<LedgerTransaction> {
    RefCandidates(
      items: store.state.ledger.transactions.elements, id: \.id.rawValue, name: \.memo,
      label: LedgerRenderer(timeZone: environment.timeZone, style: style).describe,
      itemName: "transaction", noun: .ledger)
  }

  /// The ref length of the loaded transactions.
  var ledgerRefLength: Int {
    Self.refLength(
      of: store.reading { $0.ledger.transactions },
      in: &refLengths[.ledger, default: RefLengthCache()])
  }

  /// The ref length of `transactions`, kept in `cache`.
  ///
  /// NB: nonisolated: a closure made on the main actor checks the executor each time it runs.
  nonisolated static func refLength(
    of transactions: IdentifiedArrayOf<LedgerTransaction>, in cache: inout RefLengthCache
  ) -> Int {
    cache.length(of: transactions, id: { $0.id.rawValue }, rawID: \.rawValue)
  }

  func shortRef(of id: LedgerTransaction.ID) -> String {
    Ref.short(id.rawValue, length: ledgerRefLength)
  }

  // MARK: - Links and categories

  /// The link `ref` names (by ref or by title), looked up through
  /// ``LinkList/LinkLookup/Action/refSubmitted(_:)`` when the word can start an id, and
  /// ``LinkList/LinkLookup/Action/titleSubmitted(_:)``: the links are not all loaded.
  func link(_ ref: Ref) async throws(CommandError) -> Link {
    var links: [Link] = []
    if ref.digits != nil {
      try await send(.links(.lookup(.refSubmitted(ref.text))))
      links = store.state.links.lookup.refMatches
    }
    let titled = try await send(.links(.lookup(.titleSubmitted(ref.text)))) {
      if case .links(.lookup(.titleResponse(.success(let links)))) = $0 { links } else { nil }
    }
    let byRef = Set(links.map(\.id))
    links += (titled ?? []).filter { !byRef.contains($0.id) }
    return resolve(
      try ref.resolve(
        in: RefCandidates(
          items: links, id: \.id.rawValue, name: \.title, itemName: "link", noun: .link)))
  }

  /// The link previewed into the detail with
  /// ``LinkList/LinkLookup/Action/previewSubmitted(_:)`` (no view is recorded): the link
  /// as shown, and its comments.
  func preview(_ link: Link) async throws(CommandError) -> (Link, [Comment])? {
    try await send(.links(.lookup(.previewSubmitted(link.id))))
    guard let detail = store.state.links.destination?.detail, let shown = detail.link else {
      return nil
    }
    return (shown, detail.comments.elements)
  }

  /// The shortest ref (of at least ``Ref/minimumLength`` digits) that names only this link
  /// among every stored one, from ``LinkList/LinkLookup/Action/refLengthRequested(_:)``: one
  /// lookup of the link's neighbours in the id index.
  func ref(of id: Link.ID) async throws(CommandError) -> String {
    Ref.short(id.rawValue, length: try await refLength(of: id))
  }

  /// How many digits the refs of `id` (or, `nil`, of every link) need: at least
  /// ``Ref/minimumLength``.
  func refLength(of id: Link.ID?) async throws(CommandError) -> Int {
    let length = try await send(.links(.lookup(.refLengthRequested(id)))) {
      if case .links(.lookup(.refLengthResponse(.success(let length)))) = $0 { length } else { nil }
    }
    return min(32, max(Ref.minimumLength, length ?? 32))
  }

  /// The id of the category named `name`, or `nil` when no name is given.
  ///
  /// NB: an `if`, not a generic `async` map over the optional: a nonisolated async function
  /// called from the main actor hops to the global executor and back, which cost a `link add`
  /// a third of its time even when no category was given.
  func categoryID(named name: String?) async throws(CommandError) -> Category.ID? {
    guard let name else { return nil }
    return try await category(named: name).id
  }

  /// The name of a link's category, from the categories (loaded for it).
  func categoryName(of link: Link) async throws(CommandError) -> String? {
    guard let id = link.categoryID else { return nil }
    try await reload(.category)
    return store.state.links.categories.rows[id: id]?.category.name
  }

  // MARK: - Completion

  /// The names of the loaded items of `noun`, as its ``RefCandidates`` name them (of links, those
  /// a listing loaded: the links are not all loaded).
  func loadedNames(of noun: Noun) -> [String] {
    switch noun {
    case .habit: habitCandidates.items.map(habitCandidates.name)
    case .ledger: store.state.ledger.transactions.map(\.memo).filter { !$0.isEmpty }
    case .link:
      store.state.links.all.rows.map(\.title) + store.state.links.recent.rows.map(\.title)
    case .category: store.state.links.categories.rows.map(\.category.name)
    }
  }
}

/// The names of each noun's loaded items, as the session last left them, for tab completion:
/// libedit asks on its own thread, while a command may run.
final class CompletionNames: Sendable {
  private let byNoun = Mutex<[Noun: [String]]>([:])

  /// Takes the names of every noun's loaded items from `session`.
  @MainActor func update(from session: Session) {
    let names = Dictionary(
      uniqueKeysWithValues: Noun.allCases.map { ($0, session.loadedNames(of: $0)) })
    byNoun.withLock { $0 = names }
  }

  /// The names of `noun`'s loaded items.
  func names(of noun: Noun) -> [String] {
    byNoun.withLock { $0[noun] ?? [] }
  }
}
