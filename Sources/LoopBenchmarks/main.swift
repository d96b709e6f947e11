// `loop-bench`: run in release mode, `swift run -c release loop-bench`.
import Foundation

do {
  print(formatTable(try PersistenceBenchmarks.run()))
} catch {
  print("error: \(error)")
  exit(1)
}
