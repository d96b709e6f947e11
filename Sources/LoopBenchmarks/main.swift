// `loop-bench`: every figure beside its baseline, measured in the same run.
//
//     swift run -c release loop-bench [--quick] [--json]
//                                     [--only store|persistence|postgres|repl]
//                                     [--filter TEXT]
import Foundation

// NB: the baseline of the listing rows runs as a process of its own: this binary, so.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--print-links" {
  exit(ListingBenchmarks.printLinks(path: CommandLine.arguments[2]))
}

let arguments = Set(CommandLine.arguments.dropFirst())
func value(of option: String) -> String? {
  CommandLine.arguments.firstIndex(of: option).flatMap {
    CommandLine.arguments.indices.contains($0 + 1) ? CommandLine.arguments[$0 + 1] : nil
  }
}
let settings = Settings(quick: arguments.contains("--quick"), filter: value(of: "--filter"))
let only = value(of: "--only")

var measurements: [Measurement] = []
if only == nil || only == "store" {
  measurements += await StoreBenchmarks.run(settings)
  measurements += SharedBenchmarks.run(settings)
  measurements += await ExploreBenchmarks.run(settings)
}
do {
  if only == nil || only == "persistence" {
    measurements += try PersistenceBenchmarks.run(settings)
  }
  if only == nil || only == "persistence" || only == "postgres" {
    measurements += try PostgresBenchmarks.run(settings)
  }
  if only == nil || only == "repl" {
    measurements += try await REPLBenchmarks.run(settings)
    measurements += try await ListingBenchmarks.run(settings)
    measurements += try await RecordingBenchmarks.run(settings)
  }
} catch {
  FileHandle.standardError.write(Data("loop-bench: \(error)\n".utf8))
  exit(1)
}
if arguments.contains("--json") {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  print(String(decoding: try encoder.encode(measurements), as: UTF8.self))
} else {
  print(formatTable(measurements))
}
