import Persistence
import Testing

@Suite struct DefaultFileTests {
  @Test func usesXDGDataHomeWhenSet() {
    #expect(
      ModelContainer.defaultFilePath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"])
        == "/data/loop/loop.sqlite")
  }

  @Test func fallsBackToTheHomeFolder() {
    #expect(
      ModelContainer.defaultFilePath(environment: ["XDG_DATA_HOME": "", "HOME": "/home/a"])
        == "/home/a/.local/share/loop/loop.sqlite")
  }
}
