import Foundation
import Testing

@testable import LoopCLI

/// `--help` and `-h` after a command, and `help NOUN VERB`: the command's help.
@MainActor
@Suite struct CommandHelpTests {
  /// Every command of the table, by the words that name it.
  nonisolated static let commands =
    Noun.allCases.flatMap(\.commands).map(\.name)
    + (REPLCommands.all + InterchangeCommands.all).map(\.verb)

  @Test(arguments: commands)
  func everyCommandAnswersHelpWithItsUsageEachParameterAndAnExample(name: String) async throws {
    let (command, _) = try CommandTable.command(for: name.split(separator: " ").map(String.init))
    for word in ["--help", "-h"] {
      let result = try await transcript("\(name) \(word)")
      #expect(result.status == 0)
      let lines = result.transcript.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.dropFirst().first == "usage: \(command.usage)")
      for declaration in command.declarations {
        #expect(
          lines.contains {
            $0.hasPrefix("  \(declaration.synopsis)") && $0.hasSuffix(declaration.help)
          },
          "'\(name) \(word)' does not describe \(declaration.synopsis)")
      }
      #expect(lines.contains("example:"))
    }
  }

  @Test(arguments: commands)
  func everyCommandsExampleIsACommandItsParserAccepts(name: String) throws {
    let (command, _) = try CommandTable.command(for: name.split(separator: " ").map(String.init))
    let example = Help.example(of: command)
    let words = try Tokenizer.words(in: example)
    let (found, rest) = try CommandTable.command(for: words)
    #expect(found.name == command.name)
    _ = try found.parse(rest)
  }

  @Test func helpAfterACommandPrintsItsHelpAndRunsNothing() async throws {
    let result = try await transcript("ledger report --help\nledger list")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger report --help
        usage: ledger report [--kind expense|income] [--from YYYY-MM] [--to YYYY-MM] [--months N] [--format text|json]

        Chart 12 months (up to the latest transaction's) and total the categories.

        options:
          --kind expense|income  which kind the category totals sum (expense by default)
          --from YYYY-MM         the first month
          --to YYYY-MM           the last month (the latest transaction's by default)
          --months N             how many months (12 by default), 1 to 1200
          --format text|json     json prints the data as JSON instead of a table
          --help, -h             print this help

        example:
          ledger report --from 2025-01 --to 2025-12 --kind income
        > ledger list
        No transactions yet: add one with 'ledger add expense 12.50 Lunch'.

        """)
  }

  @Test func helpNounVerbPrintsWhatHelpAfterTheCommandPrints() async throws {
    let asked = try await transcript("help habit done")
    let after = try await transcript("habit done -h")
    #expect(
      asked.transcript.split(separator: "\n").dropFirst()
        == after.transcript.split(separator: "\n").dropFirst())
  }

  @Test func helpOnAnUnknownVerbSuggestsOne() async throws {
    let result = try await transcript("help habit dne")
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > help habit dne
        ! test:1: error: unknown command 'habit dne'
        ! did you mean 'habit done'?

        """)
  }
}

@Suite struct CommandHelpBinaryTests {
  @Test func aOneShotCommandWithHelpPrintsItAndExitsWithZero() throws {
    let folder = try TemporaryFolder()
    let run = try runLoop(["--in-memory", "ledger", "report", "--help"], dataHome: folder.url)
    #expect(run.status == 0)
    #expect(run.error == "")
    #expect(run.output.hasPrefix("usage: ledger report [--kind expense|income] [--from YYYY-MM]"))
  }
}
