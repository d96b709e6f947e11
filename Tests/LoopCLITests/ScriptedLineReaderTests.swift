import Testing

@testable import LoopCLI

@Suite @MainActor struct ScriptedLineReaderTests {
  /// Every line `reader` hands out, until it has none.
  private func lines(of reader: ScriptedLineReader) -> [String] {
    var lines: [String] = []
    while let line = reader.readLine(prompt: "") { lines.append(line) }
    return lines
  }

  @Test func aTextIsReadLineByLineWithoutItsLastLineBreak() {
    #expect(
      lines(of: ScriptedLineReader(text: "habit add Read\n\nhabit list\n")) == [
        "habit add Read", "", "habit list",
      ])
    #expect(lines(of: ScriptedLineReader(text: "habit list")) == ["habit list"])
    #expect(lines(of: ScriptedLineReader(text: "")) == [])
  }

  @Test func windowsLineBreaksEndLinesToo() {
    #expect(
      lines(of: ScriptedLineReader(text: "habit add Read\r\nhabit list\r\n")) == [
        "habit add Read", "habit list",
      ])
    #expect(lines(of: ScriptedLineReader(text: "a\r\n\r\nb\nc\r")) == ["a", "", "b", "c"])
  }

  @Test func linesKeepTheirOtherCharacters() {
    #expect(
      lines(of: ScriptedLineReader(text: "habit add \"Café ☕️\"\n\tx\r y\n")) == [
        "habit add \"Café ☕️\"", "\tx\r y",
      ])
  }
}
