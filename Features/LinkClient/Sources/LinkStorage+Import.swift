import Foundation
import Loop
import Synchronization

// MARK: - Export, import, restore

extension LinkStorage {
  func importLinks(
    _ links: [ImportedLink], dryRun: Bool, progress: (Int) -> Void
  ) throws(LinkError) -> LinkImportSummary {
    @Dependency(\.uuid) var uuidDependency
    @Dependency(\.date) var date
    // NB: read once: each read of a dependency looks it up again.
    let uuid = uuidDependency
    let now = date.now
    // NB: a cancelled import (Ctrl-C) stops before each step, and every few thousand links
    // within one: checking a large file's links takes a while before the first is stored.
    try LinkError.checkCancellation()
    // Each link on its own first, before the transaction and on every core: nothing in it
    // depends on the storage or on the other links.
    let checked = CheckedLinks(links)
    try LinkError.checkCancellation()
    return try transaction(rollingBack: dryRun) { () throws(LinkError) in
      // NB: the body takes the checked links out as it stores them, from a copy of its own: on
      // PostgreSQL a transaction aborted for a deadlock runs its body again, from the start.
      var checks = checked
      var known = try KnownLinks(self, adding: links.count)
      var summary = LinkImportSummary()
      // Then, in file order, rejections are listed, duplicates skipped, every category found
      // or stored and every new link given its id; finally the links are stored.
      var order: [NewLink] = []
      order.reserveCapacity(links.count)
      for index in links.indices {
        if index % LinkClient.importBatchSize == 0 { try LinkError.checkCancellation() }
        // NB: the address is moved out, not copied: a copy would touch its text, made on
        // another core; its hash was computed there.
        guard let address = checks.addresses[index].take() else {
          if case .failure(let error)? = checks.values[index] {
            summary.rejected.append(LinkImportRejection(line: links[index].line, error: error))
          }
          continue
        }
        guard known.addresses.insert(address).inserted else {
          summary.duplicates += 1
          continue
        }
        var categoryID: Category.ID?
        if let name = categoryName(links[index].category) {
          if let id = known.categoryIDs[name.foldedForSearch] {
            categoryID = id
          } else {
            let category = Category(id: Category.ID(uuid()), name: name, createdAt: now)
            try insert(category)
            known.categoryIDs[name.foldedForSearch] = category.id
            summary.categoriesCreated.append(name)
            categoryID = category.id
          }
        }
        order.append(
          NewLink(
            id: Link.ID(uuid()), position: index, categoryID: categoryID,
            createdAt: links[index].createdAt ?? now))
      }
      // NB: stored in the order of their ids (every list orders links by its own columns, the
      // id last): SQLite then appends to the id index and to every index that ends with the
      // id, instead of inserting at random places, which halves the cost of each insert. Only
      // the small keys are sorted; each link is made from its checked values as it is stored,
      // and freed right after, while its memory is still in the cache.
      order.sort { $0.key < $1.key }
      let skipped = links.count - order.count
      for batch in order.indices.batches(of: LinkClient.importBatchSize) {
        // NB: a cancelled import (Ctrl-C) stops here, and the transaction rolls back.
        try LinkError.checkCancellation()
        for new in order[batch] {
          guard case .success(let values)? = checks.values[Int(new.position)].take() else {
            preconditionFailure("link \(new.position) of the import is stored twice")
          }
          try insert(
            Link(
              id: new.id, title: values.title, url: values.url, categoryID: new.categoryID,
              memo: values.memo, createdAt: new.createdAt))
        }
        progress(skipped + batch.upperBound)
      }
      if order.isEmpty, !links.isEmpty { progress(links.count) }
      summary.linksImported = order.count
      return summary
    }
  }

  func restoreLinks(
    _ archive: LinkArchive, dryRun: Bool, progress: (Int) -> Void
  ) throws(LinkError) -> LinkImportSummary {
    try transaction(rollingBack: dryRun) { () throws(LinkError) in
      let stored = try StoredLinks(self)
      try archive.check(against: stored)
      var summary = LinkImportSummary()

      // Categories: reuse one stored with the same id or name, otherwise store it as is.
      var categoryIDs: [Category.ID: Category.ID] = [:]
      var namedIDs = stored.categoryIDsByName
      for category in archive.categories {
        if stored.categoryIDs.contains(category.id) {
          categoryIDs[category.id] = category.id
        } else if let existing = namedIDs[category.name.foldedForSearch] {
          categoryIDs[category.id] = existing
        } else {
          try insert(category)
          namedIDs[category.name.foldedForSearch] = category.id
          categoryIDs[category.id] = category.id
          summary.categoriesCreated.append(category.name)
        }
      }
      var processed = archive.categories.count

      // Links: skip one whose id or address is stored.
      var linkIDs = stored.linkIDs
      var addresses = stored.addresses
      for batch in archive.links.batches(of: LinkClient.importBatchSize) {
        try LinkError.checkCancellation()
        for link in batch {
          guard !linkIDs.contains(link.id), addresses.insert(link.url.absoluteString).inserted
          else {
            summary.duplicates += 1
            continue
          }
          var restored = link
          restored.categoryID = link.categoryID.map { categoryIDs[$0] ?? $0 }
          try insert(restored)
          linkIDs.insert(link.id)
          summary.linksImported += 1
        }
        processed += batch.count
        progress(processed)
      }

      // Comments: only new ones, on a link that is now stored.
      for batch in archive.comments.batches(of: LinkClient.importBatchSize) {
        try LinkError.checkCancellation()
        for comment in batch
        where !stored.commentIDs.contains(comment.id) && linkIDs.contains(comment.linkID) {
          try insert(comment)
          summary.commentsImported += 1
        }
        processed += batch.count
        progress(processed)
      }
      return summary
    }
  }
}

/// An imported link's category name, trimmed; `nil` when blank.
private func categoryName(_ category: String?) -> String? {
  let name = (category ?? "").trimmedOfWhitespace
  return name.isEmpty ? nil : name
}

extension ImportedLink {
  /// The checked title, address and memo, as ``LinkDraft`` checks them; a blank title is the
  /// address.
  ///
  /// NB: each field is trimmed once: a trimmed copy is a new string, and an import checks
  /// 100,000 links.
  fileprivate func checked() throws(LinkError) -> LinkDraft.Checked {
    let address = url.trimmedOfWhitespace
    guard !address.isEmpty else { throw .invalidURL(address) }
    let title = title.trimmedOfWhitespace
    return try LinkDraft.checked(
      title: title.isEmpty ? address : title, address: address,
      memo: memo?.trimmedOfWhitespace ?? "")
  }
}

/// The links of an import, each checked on its own (as ``ImportedLink/checked()``), a large
/// import spread over the processor's cores.
///
/// NB: parsing addresses is most of the work of an import after storing the links, and each
/// check is independent: run in parallel, it takes a fraction of the time it would in the
/// transaction.
private struct CheckedLinks {
  /// Each link's checked values, or why it is rejected.
  var values: [Result<LinkDraft.Checked, LinkError>?]
  /// The address of each valid link, which tells duplicates apart; `nil` for a rejected one.
  var addresses: [Address?]

  init(_ links: [ImportedLink]) {
    // NB: chunks of a few thousand links, more than there are cores: the calling thread, which
    // runs in the import's task, takes chunks too and sees it cancelled between two of them;
    // the chunks not started then are left unchecked (the import stops).
    let chunks = max(1, links.count / 4_096)
    let isCancelled = Atomic<Bool>(false)
    values = Array(repeating: nil, count: links.count)
    addresses = Array(repeating: nil, count: links.count)
    values.withUnsafeMutableBufferPointer { values in
      addresses.withUnsafeMutableBufferPointer { addresses in
        // NB: every chunk writes only its own elements.
        nonisolated(unsafe) let (values, addresses) = (values, addresses)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
          if Task.isCancelled { isCancelled.store(true, ordering: .relaxed) }
          guard !isCancelled.load(ordering: .relaxed) else { return }
          for index in links.count * chunk / chunks..<links.count * (chunk + 1) / chunks {
            do throws(LinkError) {
              let checked = try links[index].checked()
              addresses[index] = Address(checked.url.absoluteString)
              values[index] = .success(checked)
            } catch {
              values[index] = .failure(error)
            }
          }
        }
      }
    }
  }
}

/// A link's address as duplicates are found: its absolute string, with its hash computed once.
///
/// NB: a set of 100,000 addresses then compares hashes, and reads an address's text only when
/// the hashes are equal.
private struct Address: Hashable {
  let text: String
  let hash: Int

  init(_ text: String) {
    self.text = text
    hash = text.hashValue
  }

  static func == (lhs: Address, rhs: Address) -> Bool {
    lhs.hash == rhs.hash && lhs.text == rhs.text
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }
}

/// A link the import stores: its new id, as the id's bytes in one number (so that ids compare as
/// SQLite compares their stored bytes), where it is in the import, its category and its date.
///
/// NB: small, so that sorting 100,000 of them moves little memory, and holding everything the
/// storing pass needs besides the checked values, so that it reads nothing else of the import.
private struct NewLink {
  var key: UInt128
  var createdAt: Date
  var categoryID: Category.ID?
  var position: Int32

  init(id: Link.ID, position: Int, categoryID: Category.ID?, createdAt: Date) {
    key = withUnsafeBytes(of: id.rawValue.uuid) {
      UInt128(bigEndian: $0.loadUnaligned(as: UInt128.self))
    }
    // NB: an import holds far fewer than 2^31 links (its file is at most 100 MB).
    self.position = Int32(position)
    self.categoryID = categoryID
    self.createdAt = createdAt
  }

  /// The new id.
  var id: Link.ID {
    Link.ID(withUnsafeBytes(of: key.bigEndian) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
  }
}

/// What an import checks its links against: the saved addresses and categories, and those the
/// import added so far.
private struct KnownLinks {
  /// The saved links' addresses.
  var addresses: Set<Address>
  /// The categories' ids by case-folded name.
  var categoryIDs: [String: Category.ID]

  /// Reads the saved links and categories, with room for `count` more addresses.
  init(_ storage: some LinkStorage, adding count: Int) throws(LinkError) {
    let links = try storage.fetchEveryLink()
    addresses = Set(minimumCapacity: links.count + count)
    for link in links { addresses.insert(Address(link.url.absoluteString)) }
    categoryIDs = Dictionary(
      try storage.fetchCategories().map { ($0.name.foldedForSearch, $0.id) },
      uniquingKeysWith: { first, _ in first })
  }
}

/// The stored ids and keys a restore merges an archive with.
private struct StoredLinks {
  var categoryIDs: Set<Category.ID>
  var categoryIDsByName: [String: Category.ID]
  var linkIDs: Set<Link.ID>
  var addresses: Set<String>
  var commentIDs: Set<Comment.ID>

  init(_ storage: some LinkStorage) throws(LinkError) {
    let archive = try storage.fetchArchive()
    let categories = archive.categories
    categoryIDs = Set(categories.map(\.id))
    categoryIDsByName = Dictionary(
      categories.map { ($0.name.foldedForSearch, $0.id) }, uniquingKeysWith: { first, _ in first })
    linkIDs = Set(archive.links.map(\.id))
    addresses = Set(archive.links.map(\.url.absoluteString))
    commentIDs = Set(archive.comments.map(\.id))
  }
}

extension LinkArchive {
  /// Throws ``LinkError/invalidArchive(_:)`` for the first entry that could not have been stored
  /// by the client, or that points at nothing.
  fileprivate func check(against stored: StoredLinks) throws(LinkError) {
    var names: Set<String> = []
    var categoryIDs: Set<Category.ID> = []
    for category in categories {
      let entry = try Self.entry(
        "category", category.id, notIn: &categoryIDs, text: category.name, ifBlank: "has no name")
      guard names.insert(category.name.foldedForSearch).inserted else {
        throw .invalidArchive("\(entry) has the name '\(category.name)' of another category")
      }
    }
    var linkIDs: Set<Link.ID> = []
    for link in links {
      let entry = try Self.entry(
        "link", link.id, notIn: &linkIDs, text: link.title, ifBlank: "has no title")
      guard link.url.isWebAddress else {
        throw .invalidArchive("\(entry) has '\(link.url.absoluteString)', not a web address")
      }
      if let categoryID = link.categoryID, !categoryIDs.contains(categoryID),
        !stored.categoryIDs.contains(categoryID)
      {
        throw .invalidArchive("\(entry) is in category '\(categoryID)', which does not exist")
      }
    }
    var commentIDs: Set<Comment.ID> = []
    for comment in comments {
      let entry = try Self.entry(
        "comment", comment.id, notIn: &commentIDs, text: comment.text, ifBlank: "is empty")
      guard linkIDs.contains(comment.linkID) || stored.linkIDs.contains(comment.linkID) else {
        throw .invalidArchive("\(entry) is on link '\(comment.linkID)', which does not exist")
      }
    }
  }

  /// How a message names an entry (`link '…'`), once its id is one not seen before (then added
  /// to `seen`) and its text is not blank; else throws what is wrong with it.
  private static func entry<ID: Hashable>(
    _ kind: String, _ id: ID, notIn seen: inout Set<ID>, text: String, ifBlank blank: String
  ) throws(LinkError) -> String {
    let entry = "\(kind) '\(id)'"
    guard seen.insert(id).inserted else { throw .invalidArchive("\(entry) appears twice") }
    guard !text.trimmedOfWhitespace.isEmpty else { throw .invalidArchive("\(entry) \(blank)") }
    return entry
  }
}

extension URL {
  /// Whether this is an absolute `http` or `https` URL with a host, as ``LinkDraft`` requires.
  var isWebAddress: Bool {
    guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host, !host.isEmpty
    else { return false }
    return true
  }
}

extension Array {
  /// The array in consecutive slices of at most `size` elements.
  fileprivate func batches(of size: Int) -> [ArraySlice<Element>] {
    stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
  }
}

extension Range<Int> {
  /// The range in consecutive ranges of at most `size` elements.
  fileprivate func batches(of size: Int) -> [Range<Int>] {
    stride(from: lowerBound, to: upperBound, by: size).map {
      $0..<Swift.min($0 + size, upperBound)
    }
  }
}
