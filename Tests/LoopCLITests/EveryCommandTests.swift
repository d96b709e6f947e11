import Foundation
import TestSupport
import Testing

@testable import LoopCLI

/// Every command the REPL declares, run once through the binary on one file (and on one
/// PostgreSQL database), each answered with status 0: a crash in any command's path (a presented child's effect, an import, a
/// report) fails here, in the release build too when `LOOP_BINARY` names it.
@Suite struct EveryCommandTests {
  /// The lines to run, in order; `{link}`, `{habit}` and `{transaction}` stand for the refs the
  /// adds print, `{folder}` for the test's folder.
  static let lines = [
    "help", "help link", ":trace off", ":state", ":record {folder}/session.txt",
    "category add Reading", "category list", "category rename Reading Books",
    "link add \"Swift book\" https://docs.swift.org/book --category Books --memo language",
    "link list", "link search Swift", "link show {link}", "link open {link}", "link recent",
    "link fav {link}", "link unfav {link}", "link comment {link} \"Chapter 3\"",
    "link update {link} --title \"The Swift book\"", "link export {folder}/links.json",
    "link import {folder}/links.json --dry-run", "link rm {link}", "category rm Books",
    "habit add Read", "habit list", "habit done {habit}", "habit undo {habit}",
    "habit rename {habit} Reading", "habit show {habit}", "habit archive {habit}",
    "habit unarchive {habit}", "habit export {folder}/habits.json", "habit rm {habit} --yes",
    "ledger add expense 12.50 Lunch --category Food", "ledger list", "ledger home",
    "ledger update {transaction} --memo Dinner", "ledger report",
    "ledger export {folder}/ledger.csv", "ledger import {folder}/ledger.csv --dry-run",
    "ledger rm {transaction}",
    "export {folder}/all.json", "import {folder}/all.json --dry-run", ":quit", "exit",
  ]

  @Test func everyDeclaredCommandIsRun() {
    let words = Self.lines.map { $0.split(separator: " ") }
    let run = Set(words.map { $0.prefix(2).joined(separator: " ") } + words.map { String($0[0]) })
    for command in CommandTable.commands {
      let name = [command.noun?.rawValue, command.verb].compactMap { $0 }.joined(separator: " ")
      #expect(run.contains(name), "'\(name)' is not run here")
    }
  }

  @Test(arguments: Backend.persistent)
  func everyCommandAnswersWithStatusZeroInTheBinary(_ backend: Backend) throws {
    let folder = try TemporaryFolder()
    let db = folder.database(backend)
    var refs = ["folder": folder.url.path]
    for line in Self.lines {
      var resolved = line
      for (name, ref) in refs {
        resolved = resolved.replacingOccurrences(of: "{\(name)}", with: ref)
      }
      let run = try runLoop(["--db", db], input: resolved + "\n", dataHome: folder.url)
      #expect(run.status == 0, "'\(resolved)': \(run.error)")
      if let ref = run.output.firstMatch(
        of: /^Added (link|habit|expense)[^\n]*\((\w+)\)\.$/.anchorsMatchLineEndings())
      {
        let name = ref.1 == "expense" ? "transaction" : String(ref.1)
        refs[name] = String(ref.2)
      }
    }
    #expect(refs.keys.sorted() == ["folder", "habit", "link", "transaction"])
  }
}
