import Foundation
import Loop
import Persistence

// MARK: - Export, import, restore

extension LinkStorage {
  func exportLinks() throws(LinkError) -> LinkArchive {
    try LinkError.capturing {
      try context.transaction { context in
        LinkArchive(
          categories: try context.fetchAll(
            Category.self, sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.id)]),
          links: try context.fetchAll(
            Link.self, sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.id)]),
          comments: try context.fetchAll(
            Comment.self, sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.id)]))
      }
    }
  }

  func importLinks(
    _ links: [ImportedLink], dryRun: Bool, progress: (Int) -> Void
  ) throws(LinkError) -> LinkImportSummary {
    @Dependency(\.uuid) var uuidDependency
    @Dependency(\.date) var date
    // NB: read once: each read of a dependency looks it up again.
    let uuid = uuidDependency
    let now = date.now
    return try LinkError.capturing {
      try transaction(dryRun: dryRun) { context in
        var known = try KnownLinks(context, adding: links.count)
        var summary = LinkImportSummary()
        // First every link is checked, and its category found or stored; then the links are
        // stored.
        var accepted: [(link: Link.ID, index: Int, checked: LinkDraft.Checked, Category.ID?)] = []
        accepted.reserveCapacity(links.count)
        for (index, imported) in links.enumerated() {
          let checked: LinkDraft.Checked
          do throws(LinkError) {
            checked = try imported.checked()
          } catch {
            summary.rejected.append(LinkImportRejection(line: imported.line, error: error))
            continue
          }
          guard known.addresses.insert(checked.url.absoluteString).inserted else {
            summary.duplicates += 1
            continue
          }
          var categoryID: Category.ID?
          if let name = imported.categoryName {
            if let id = known.categoryIDs[name.caseFolded] {
              categoryID = id
            } else {
              let category = Category(id: Category.ID(uuid()), name: name, createdAt: now)
              try context.insert(category)
              known.categoryIDs[name.caseFolded] = category.id
              summary.categoriesCreated.append(name)
              categoryID = category.id
            }
          }
          accepted.append((Link.ID(uuid()), index, checked, categoryID))
        }
        // NB: stored in the order of their ids (every list orders links by its own columns, the
        // id last): SQLite then appends to the id index and to every index that ends with the
        // id, instead of inserting at random places, which halves the cost of each insert.
        accepted.sort { $0.link.storedOrder < $1.link.storedOrder }
        let skipped = links.count - accepted.count
        for batch in accepted.indices.batches(of: LinkClient.importBatchSize) {
          for (id, index, checked, categoryID) in accepted[batch] {
            try context.insert(
              Link(
                id: id, title: checked.title, url: checked.url, categoryID: categoryID,
                memo: checked.memo, createdAt: links[index].createdAt ?? now))
          }
          progress(skipped + batch.upperBound)
        }
        if accepted.isEmpty, !links.isEmpty { progress(links.count) }
        summary.linksImported = accepted.count
        return summary
      }
    }
  }

  func restoreLinks(
    _ archive: LinkArchive, dryRun: Bool, progress: (Int) -> Void
  ) throws(LinkError) -> LinkImportSummary {
    try LinkError.capturing {
      try transaction(dryRun: dryRun) { context in
        let stored = try StoredLinks(context)
        try archive.check(against: stored)
        var summary = LinkImportSummary()

        // Categories: reuse one stored with the same id or name, otherwise store it as is.
        var categoryIDs: [Category.ID: Category.ID] = [:]
        var namedIDs = stored.categoryIDsByName
        for category in archive.categories {
          if stored.categoryIDs.contains(category.id) {
            categoryIDs[category.id] = category.id
          } else if let existing = namedIDs[category.name.caseFolded] {
            categoryIDs[category.id] = existing
          } else {
            try context.insert(category)
            namedIDs[category.name.caseFolded] = category.id
            categoryIDs[category.id] = category.id
            summary.categoriesCreated.append(category.name)
          }
        }
        var processed = archive.categories.count

        // Links: skip one whose id or address is stored.
        var linkIDs = stored.linkIDs
        var addresses = stored.addresses
        for batch in archive.links.batches(of: LinkClient.importBatchSize) {
          for link in batch {
            guard !linkIDs.contains(link.id), addresses.insert(link.url.absoluteString).inserted
            else {
              summary.duplicates += 1
              continue
            }
            var restored = link
            restored.categoryID = link.categoryID.map { categoryIDs[$0] ?? $0 }
            try context.insert(restored)
            linkIDs.insert(link.id)
            summary.linksImported += 1
          }
          processed += batch.count
          progress(processed)
        }

        // Comments: only new ones, on a link that is now stored.
        for batch in archive.comments.batches(of: LinkClient.importBatchSize) {
          for comment in batch
          where !stored.commentIDs.contains(comment.id) && linkIDs.contains(comment.linkID) {
            try context.insert(comment)
            summary.commentsImported += 1
          }
          processed += batch.count
          progress(processed)
        }
        return summary
      }
    }
  }

  /// Runs `body` in one transaction; with `dryRun`, rolls it back and still returns its result.
  private func transaction<R: Sendable>(
    dryRun: Bool, _ body: (ModelContext) throws -> R
  ) throws -> R {
    do {
      return try context.transaction { context in
        let result = try body(context)
        if dryRun { throw DryRun(result: result) }
        return result
      }
    } catch let dryRun as DryRun<R> {
      return dryRun.result
    }
  }
}

/// Thrown at the end of a dry run to roll its transaction back, carrying its result.
private struct DryRun<Result: Sendable>: Error {
  let result: Result
}

extension ImportedLink {
  /// The category's name, trimmed; `nil` when blank.
  fileprivate var categoryName: String? {
    let name = (category ?? "").trimmedOfWhitespace
    return name.isEmpty ? nil : name
  }

  /// The checked title, address and memo, as ``LinkDraft`` checks them; a blank title is the
  /// address.
  fileprivate func checked() throws(LinkError) -> LinkDraft.Checked {
    let address = url.trimmedOfWhitespace
    guard !address.isEmpty else { throw .invalidURL(address) }
    let isUntitled = title.trimmedOfWhitespace.isEmpty
    return try LinkDraft(title: isUntitled ? address : title, url: address, memo: memo ?? "")
      .checked()
  }
}

/// What an import checks its links against: the saved addresses and categories, and those the
/// import added so far.
private struct KnownLinks {
  /// The absolute strings of the saved links' addresses.
  var addresses: Set<String>
  /// The categories' ids by case-folded name.
  var categoryIDs: [String: Category.ID]

  /// Reads the saved links and categories, with room for `count` more addresses.
  init(_ context: ModelContext, adding count: Int) throws {
    let links = try context.fetchAll(Link.self)
    addresses = Set(minimumCapacity: links.count + count)
    for link in links { addresses.insert(link.url.absoluteString) }
    categoryIDs = Dictionary(
      try context.fetchAll(Category.self).map { ($0.name.caseFolded, $0.id) },
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

  init(_ context: ModelContext) throws {
    let categories = try context.fetchAll(Category.self)
    categoryIDs = Set(categories.map(\.id))
    categoryIDsByName = Dictionary(
      categories.map { ($0.name.caseFolded, $0.id) }, uniquingKeysWith: { first, _ in first })
    let links = try context.fetchAll(Link.self)
    linkIDs = Set(links.map(\.id))
    addresses = Set(links.map(\.url.absoluteString))
    commentIDs = Set(try context.fetchAll(Comment.self).map(\.id))
  }
}

extension LinkArchive {
  /// Throws ``LinkError/invalidArchive(_:)`` for the first entry that could not have been stored
  /// by the client, or that points at nothing.
  fileprivate func check(against stored: StoredLinks) throws(LinkError) {
    var names: Set<String> = []
    var categoryIDs: Set<Category.ID> = []
    for category in categories {
      let entry = "category '\(category.id)'"
      guard categoryIDs.insert(category.id).inserted else {
        throw .invalidArchive("\(entry) appears twice")
      }
      guard !category.name.trimmedOfWhitespace.isEmpty else {
        throw .invalidArchive("\(entry) has no name")
      }
      guard names.insert(category.name.caseFolded).inserted else {
        throw .invalidArchive("\(entry) has the name '\(category.name)' of another category")
      }
    }
    var linkIDs: Set<Link.ID> = []
    for link in links {
      let entry = "link '\(link.id)'"
      guard linkIDs.insert(link.id).inserted else {
        throw .invalidArchive("\(entry) appears twice")
      }
      guard !link.title.trimmedOfWhitespace.isEmpty else {
        throw .invalidArchive("\(entry) has no title")
      }
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
      let entry = "comment '\(comment.id)'"
      guard commentIDs.insert(comment.id).inserted else {
        throw .invalidArchive("\(entry) appears twice")
      }
      guard !comment.text.trimmedOfWhitespace.isEmpty else {
        throw .invalidArchive("\(entry) is empty")
      }
      guard linkIDs.contains(comment.linkID) || stored.linkIDs.contains(comment.linkID) else {
        throw .invalidArchive("\(entry) is on link '\(comment.linkID)', which does not exist")
      }
    }
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

extension ModelID {
  /// The id's bytes as one number, so that ids compare as SQLite compares their stored bytes.
  fileprivate var storedOrder: UInt128 {
    withUnsafeBytes(of: rawValue.uuid) { UInt128(bigEndian: $0.loadUnaligned(as: UInt128.self)) }
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
