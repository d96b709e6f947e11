import Foundation
import Loop
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder for one test, removed when it ends.
private final class Folder {
  let url = URL(filePath: NSTemporaryDirectory())
    .appending(component: "loop-app-storage-\(UUID().uuidString)")

  init() throws {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  var settings: URL { url.appending(component: "settings.json") }
}

/// Declares the setting `key` as the app does, in `folder`'s settings file.
private func liveSetting(
  _ key: String, in folder: Folder, default value: Int = 1_000
) -> Shared<Int> {
  withDependencies {
    $0.context = .live
    $0.defaultAppStorage = SettingsFile(url: folder.settings)
  } operation: {
    Shared(wrappedValue: value, .appStorage(key))
  }
}

private func text(_ url: URL) throws -> String {
  try String(decoding: Data(contentsOf: url), as: UTF8.self)
}

/// A store whose feature reads the page size setting.
private struct Listing: Reducer {
  struct State: Equatable {
    @Shared(.appStorage("pageSize")) var pageSize = 1_000
  }
  enum Action: Equatable { case pageSizeChanged(Int) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .pageSizeChanged(let size):
        state.$pageSize.withLock { $0 = size }
        return .none
      }
    }
  }
}

@MainActor
@Suite struct AppStorageKeyTests {
  @Test func inATestEachTestStartsFromTheDefaultAndNoFileIsWritten() {
    @Shared(.appStorage("pageSize")) var pageSize = 1_000
    #expect(pageSize == 1_000)
    $pageSize.withLock { $0 = 50 }
    @Shared(.appStorage("pageSize")) var again = 1_000
    #expect(again == 50)
  }

  @Test func aChangeIsWrittenToTheSettingsFileAsAJSONMember() throws {
    let folder = try Folder()
    let pageSize = liveSetting("pageSize", in: folder)
    pageSize.withLock { $0 = 50 }
    #expect(try text(folder.settings) == "{\n  \"pageSize\" : 50\n}")
  }

  @Test func theSettingsFileIsReadableByItsOwnerOnly() throws {
    let folder = try Folder()
    liveSetting("pageSize", in: folder).withLock { $0 = 50 }
    var info = stat()
    #expect(stat(folder.settings.path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600)
  }

  @Test func twoSettingsShareTheFileAndKeepEachOther() throws {
    let folder = try Folder()
    liveSetting("pageSize", in: folder).withLock { $0 = 50 }
    liveSetting("columns", in: folder, default: 2).withLock { $0 = 3 }
    #expect(try text(folder.settings) == "{\n  \"columns\" : 3,\n  \"pageSize\" : 50\n}")
  }

  @Test func aSettingPersistsAcrossTwoStoresOnOneFolder() throws {
    let folder = try Folder()
    let secondPageSize = withDependencies {
      $0.context = .live
      $0.defaultAppStorage = SettingsFile(url: folder.settings)
    } operation: {
      let first = Store(initialState: Listing.State()) { Listing() }
      first.send(.pageSizeChanged(25))
      let second = Store(initialState: Listing.State()) { Listing() }
      return second.state.pageSize
    }
    #expect(secondPageSize == 25)
    #expect(try text(folder.settings) == "{\n  \"pageSize\" : 25\n}")
  }

  @Test func aChangeFromAnotherProcessIsSeenOnTheNextRead() throws {
    let folder = try Folder()
    let pageSize = liveSetting("pageSize", in: folder)
    pageSize.withLock { $0 = 50 }
    // NB: another process rewrites the file (a rename, as an atomic write does).
    let other = folder.url.appending(component: "other.json")
    try Data("{\"pageSize\": 75}".utf8).write(to: other)
    #expect(rename(other.path, folder.settings.path) == 0)
    #expect(pageSize.wrappedValue == 75)
  }

  @Test func aSettingFileWrittenBeforeIsReadByTheFirstShared() throws {
    let folder = try Folder()
    try Data("{\"columns\": 4}".utf8).write(to: folder.settings)
    #expect(liveSetting("columns", in: folder, default: 2).wrappedValue == 4)
  }
}
