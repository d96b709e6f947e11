import Foundation
import Loop
import Testing

private struct Settings: Codable, Equatable, Sendable {
  var theme = "light"
  var fontSize = 12
}

/// A fresh folder for one test, removed when it ends.
private final class Folder {
  let url = URL(filePath: NSTemporaryDirectory())
    .appending(component: "loop-file-storage-\(UUID().uuidString)")

  init() throws {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  func file(_ name: String) -> URL { url.appending(component: name) }

  var names: [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: url.path).sorted()) ?? []
  }
}

/// Declares the shared value for `url` as the app does, reading and writing the file.
private func liveSettings(_ url: URL, default value: Settings = Settings()) -> Shared<Settings> {
  withDependencies {
    $0.context = .live
  } operation: {
    Shared(wrappedValue: value, .fileStorage(url))
  }
}

private func text(_ url: URL) throws -> String {
  try String(decoding: Data(contentsOf: url), as: UTF8.self)
}

@Suite struct FileStorageKeyTests {
  @Test func inATestTheValueStaysInMemoryAndTheFileIsNeverWritten() throws {
    let folder = try Folder()
    @Shared(.fileStorage(folder.file("settings.json"))) var settings = Settings()
    $settings.withLock { $0.fontSize = 14 }
    @Shared(.fileStorage(folder.file("settings.json"))) var again = Settings()
    #expect(again.fontSize == 14)
    #expect(folder.names.isEmpty)
  }

  @Test func aMissingFileLeavesTheDefaultAndIsNotCreated() throws {
    let folder = try Folder()
    let settings = liveSettings(folder.file("settings.json"), default: Settings(theme: "dark"))
    #expect(settings.wrappedValue == Settings(theme: "dark"))
    #expect(folder.names.isEmpty)
  }

  @Test func aChangeIsWrittenAsJSON() throws {
    let folder = try Folder()
    let settings = liveSettings(folder.file("settings.json"))
    settings.withLock { $0.fontSize = 16 }
    #expect(
      try text(folder.file("settings.json")) == """
        {
          "fontSize" : 16,
          "theme" : "light"
        }
        """)
  }

  @Test func theFileIsReadByTheFirstDeclaration() throws {
    let folder = try Folder()
    try Data(#"{"theme": "dark", "fontSize": 20}"#.utf8).write(to: folder.file("settings.json"))
    let settings = liveSettings(folder.file("settings.json"))
    #expect(settings.wrappedValue == Settings(theme: "dark", fontSize: 20))
  }

  @Test func declarationsOfOneFileShareOneValue() throws {
    let folder = try Folder()
    let first = liveSettings(folder.file("settings.json"))
    let second = liveSettings(folder.file("./settings.json"), default: Settings(theme: "dark"))
    first.withLock { $0.theme = "solarized" }
    #expect(second.wrappedValue.theme == "solarized")
  }

  @Test func aChangeReplacesTheFileWholeAndLeavesNoTemporaryFile() throws {
    let folder = try Folder()
    let file = folder.file("settings.json")
    let settings = liveSettings(file)
    settings.withLock { $0.fontSize = 13 }
    let before = try text(file)
    // NB: a second name for the file as it is: a write in place would change what it reads too;
    // a rename over the file leaves it the old content.
    try FileManager.default.linkItem(at: file, to: folder.file("before.json"))
    settings.withLock { $0.fontSize = 14 }
    #expect(try text(folder.file("before.json")) == before)
    #expect(try text(file).contains(#""fontSize" : 14"#))
    #expect(folder.names == ["before.json", "settings.json"])
  }

  @Test func aChangeFromAnotherProcessIsPickedUp() throws {
    let folder = try Folder()
    let file = folder.file("settings.json")
    let settings = liveSettings(file)
    settings.withLock { $0.fontSize = 13 }
    let process = Process()
    process.executableURL = URL(filePath: "/bin/sh")
    process.arguments = [
      "-c", #"printf '{"theme": "dark", "fontSize": 9}' > "$1.tmp" && mv "$1.tmp" "$1""#, "sh",
      file.path,
    ]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(settings.wrappedValue == Settings(theme: "dark", fontSize: 9))
  }

  @Test func aDeletedFileGivesTheDefaultBack() throws {
    let folder = try Folder()
    let file = folder.file("settings.json")
    let settings = liveSettings(file, default: Settings(theme: "dark"))
    settings.withLock { $0.theme = "light" }
    try FileManager.default.removeItem(at: file)
    #expect(settings.wrappedValue.theme == "dark")
  }

  @Test func aFileThatIsNotTheValuesJSONIsReportedAndLeftAlone() throws {
    let folder = try Folder()
    let file = folder.file("settings.json")
    try Data(#"{"theme": 7}"#.utf8).write(to: file)
    let issues = IssueCollector()
    let settings = withIssueReporter(issues) { liveSettings(file) }
    #expect(settings.wrappedValue == Settings())
    #expect(try text(file) == #"{"theme": 7}"#)
    #expect(
      issues.messages == [
        """
        Shared<Settings>(.fileStorage("\(file.path)")) could not be loaded: '\(file.path)' \
        does not hold a Settings in JSON: expected String (at 'theme')

        The value stays as it was; the next change overwrites what is stored.
        """
      ])
  }

  @Test func aFileChangedToSomethingUnreadableKeepsTheValue() throws {
    let folder = try Folder()
    let file = folder.file("settings.json")
    let settings = liveSettings(file)
    settings.withLock { $0.fontSize = 30 }
    try Data("not json".utf8).write(to: file)
    let issues = IssueCollector()
    let value = withIssueReporter(issues) { settings.wrappedValue }
    #expect(value.fontSize == 30)
    #expect(issues.messages.count == 1)
    #expect(
      issues.messages.first?.hasPrefix(
        """
        Shared<Settings>(.fileStorage("\(file.path)")) could not be loaded: '\(file.path)' \
        does not hold a Settings in JSON:
        """) == true)
  }

  @Test func aFailedWriteIsReportedAndKeepsTheChangeInMemory() throws {
    let folder = try Folder()
    // NB: a file where the folder should be: no folder can be made there (even by root).
    try Data().write(to: folder.file("taken"))
    let file = folder.file("taken").appending(component: "settings.json")
    let settings = liveSettings(file)
    let issues = IssueCollector()
    withIssueReporter(issues) { settings.withLock { $0.fontSize = 18 } }
    #expect(settings.wrappedValue.fontSize == 18)
    #expect(folder.names == ["taken"])
    #expect(
      issues.messages == [
        """
        Shared<Settings>(.fileStorage("\(file.path)")) could not be saved: '\(file.path)' \
        could not be written: '\(folder.file("taken").path)' is not a folder

        The value changed in memory; the stored value is the one saved before.
        """
      ])
  }
}
