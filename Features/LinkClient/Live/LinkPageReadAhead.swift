import Foundation
import LinkClient
import Loop
import Persistence
import Synchronization

/// The live client's pages of links (``LinkClient/fetchLinkPage``), each read off the main
/// actor, and the page after it read ahead while the caller shows it.
///
/// A list paged to its end (`loop`'s `link list`) asks for the next page only once it has the
/// last one; reading that page ahead keeps the storage busy while the caller reduces and prints,
/// instead of waiting for it each time.
///
/// A page read ahead is used only when it is exactly the one asked for (the same category,
/// cursor and size) and nothing was written through the container since it began
/// (``Persistence/ModelContainer/writeCount``); otherwise the page is read afresh, so an answer
/// is always what reading at the time of the request would give. At most one page is kept. The
/// pages after a first page are read ahead, not the second: a first page is followed by the
/// caller's other reads (the refs' length), which should not wait behind it.
final class LinkPageReadAhead: Sendable {
  /// Which page: its category, cursor and size.
  private struct Request: Equatable {
    var categoryID: Category.ID?
    var cursor: LinkPage.Cursor
    var limit: Int
  }

  /// A page being read (or read) ahead, with the write count when it began.
  private struct Ahead {
    var request: Request
    var writeCount: Int
    var page: Task<LinkPage, any Error>
  }

  private let ahead = Mutex<Ahead?>(nil)
  // NB: a read ahead is not cancelled when replaced or unused: it is one page, and a task
  // reading storage synchronously cannot stop midway.
  private let read: @Sendable (Category.ID?, LinkPage.Cursor?, Int) throws(LinkError) -> LinkPage
  private let writeCount: @Sendable () -> Int

  /// Pages read by `read`, kept while `writeCount` does not change.
  init(
    read: @escaping @Sendable (Category.ID?, LinkPage.Cursor?, Int) throws(LinkError) -> LinkPage,
    writeCount: @escaping @Sendable () -> Int
  ) {
    self.read = read
    self.writeCount = writeCount
  }

  /// The page of links (a category's, if given) after `cursor`, at most `limit`.
  func page(
    in categoryID: Category.ID?, after cursor: LinkPage.Cursor?, limit: Int
  ) async throws(LinkError) -> LinkPage {
    let kept = ahead.withLock { ahead in
      defer { ahead = nil }
      return ahead
    }
    let page: LinkPage
    if let kept, let cursor,
      kept.request == Request(categoryID: categoryID, cursor: cursor, limit: limit),
      kept.writeCount == writeCount(), case .success(let ready) = await kept.page.result
    {
      page = ready
    } else {
      // NB: a page read ahead that failed is read again here, so the error is this call's.
      page = try await offMainActor { [read] () throws(LinkError) in
        try read(categoryID, cursor, limit)
      }
    }
    if cursor != nil, let next = page.next {
      readAhead(Request(categoryID: categoryID, cursor: next, limit: limit))
    }
    return page
  }

  /// Where the page being read ahead starts, if one is.
  var cursorReadAhead: LinkPage.Cursor? { ahead.withLock { $0?.request.cursor } }

  /// Starts reading the page `request` asks for.
  private func readAhead(_ request: Request) {
    // NB: the count is taken before the read begins (see `writeCount`).
    let count = writeCount()
    let task = Task.detached { [read] in
      try read(request.categoryID, request.cursor, request.limit)
    }
    ahead.withLock { $0 = Ahead(request: request, writeCount: count, page: task) }
  }
}
