import CSQLite
import Foundation
import LinkClient
import LinkClientLive
import Loop
import LoopCLI
import Persistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `link list` on a large database, as a person runs it, beside SQLite's C API.
///
/// The `loop` binary prints every link; a process of SQLite's C API prints the same columns of
/// the same rows in the same order (this binary, run as `loop-bench --print-links FILE`). Each
/// side is a process of its own, started the same way, so its time includes starting and
/// opening the file, and its peak memory is its own.
@MainActor
enum ListingBenchmarks {
  static func run(_ settings: Settings) async throws -> [Measurement] {
    let count = settings.size(200_000, quick: 2_000)
    let listName = "link list, \(count.formatted()) links to /dev/null"
    let firstName = "link list, \(count.formatted()) links: the first row"
    guard settings.includes(listName) || settings.includes(firstName) else { return [] }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("links.sqlite").path
    try await seed(count, into: database)

    let loop = [try sibling("loop").path, "--db", database, "link", "list"]
    let direct = [try sibling(nil).path, "--print-links", database]
    var measurements: [Measurement] = []
    if settings.includes(listName) {
      var peaks = (ours: 0, baseline: 0)
      let times = try medianTimes(runs: settings.longRuns) {
        peaks.ours = max(peaks.ours, try Child.run(loop).peakKiB)
      } baseline: {
        peaks.baseline = max(peaks.baseline, try Child.run(direct).peakKiB)
      }
      measurements.append(
        Measurement(
          group: "REPL", name: listName, operations: count, ours: times.ours,
          baseline: times.baseline, baselineName: "C API printing the same columns",
          unit: .perSecond,
          peakMemory: "\(peaks.ours / 1_024) MB vs \(peaks.baseline / 1_024) MB"))
    }
    if settings.includes(firstName) {
      var first = (ours: [Double](), baseline: [Double]())
      for _ in 0..<(settings.runs + 1) {
        first.ours.append(try Child.run(loop, untilLines: 2).seconds)
        first.baseline.append(try Child.run(direct, untilLines: 2).seconds)
      }
      // NB: the first run of each warms the file's pages and the binaries into the OS cache.
      measurements.append(
        Measurement(
          group: "REPL", name: firstName, operations: 1,
          ours: median(first.ours.dropFirst()), baseline: median(first.baseline.dropFirst()),
          baselineName: "the C API's first row", unit: .milliseconds))
    }
    return measurements
  }

  /// Stores `count` links in 20 categories, as `link import` stores a file's, into a new file.
  private static func seed(_ count: Int, into path: String) async throws {
    let container = try ModelContainer(for: AppEnvironment.models, storage: .file(path))
    let links = (0..<count).map { index in
      ImportedLink(
        line: index + 2, title: "title \(index)",
        url: "https://example\(index % 997).com/p/\(index)", category: "cat\(index % 20)")
    }
    let client = LinkClient.live(context: ModelContext(container))
    _ = try await withDependencies {
      $0.uuid = UUIDGenerator { UUID() }
      $0.date = DateGenerator { Date() }
    } operation: {
      try await client.importLinks(links)
    }
  }

  /// A binary beside this one (`loop`), or this one (`nil`).
  private static func sibling(_ name: String?) throws -> URL {
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    guard let name else { return me }
    let binary = me.deletingLastPathComponent().appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw PersistenceBenchmarks.Failure(description: "'\(binary.path)' is not built")
    }
    return binary
  }

  private static func median(_ values: some Collection<Double>) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }

  /// The baseline's process: prints every link's ref, star, title and category name, newest
  /// first, as `link list` prints them, with SQLite's C API, to standard output.
  ///
  /// - Parameter path: The database file.
  /// - Returns: The exit status.
  static func printLinks(path: String) -> Int32 {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle
    else { return 1 }
    defer { sqlite3_close_v2(handle) }
    let sql = """
      SELECT l.id, l.is_favorite, l.title, c.name FROM links l
      LEFT JOIN categories c ON c.id = l.category_id
      ORDER BY l.created_at DESC, l.id DESC
      """
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      return 1
    }
    defer { sqlite3_finalize(statement) }
    let hex = Array("0123456789abcdef".utf8)
    // NB: written as stdio writes to a file: 64 KiB at a time, the header at once.
    var line: [UInt8] = []
    func flush() {
      _ = line.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count) }
      line.removeAll(keepingCapacity: true)
    }
    line.append(contentsOf: "REF         ★  TITLE         CATEGORY\n".utf8)
    flush()
    while sqlite3_step(statement) == SQLITE_ROW {
      if line.count > 65_536 { flush() }
      if let id = sqlite3_column_blob(statement, 0)?.assumingMemoryBound(to: UInt8.self) {
        for offset in 0..<5 {
          line.append(hex[Int(id[offset] >> 4)])
          line.append(hex[Int(id[offset] & 0xF)])
        }
      }
      line.append(contentsOf: "  ".utf8)
      line.append(contentsOf: (sqlite3_column_int(statement, 1) != 0 ? "★" : " ").utf8)
      line.append(contentsOf: "  ".utf8)
      if let title = sqlite3_column_text(statement, 2) {
        let length = Int(sqlite3_column_bytes(statement, 2))
        line.append(contentsOf: UnsafeBufferPointer(start: title, count: length))
        line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(0, 12 - length)))
      }
      line.append(contentsOf: "  ".utf8)
      if let name = sqlite3_column_text(statement, 3) {
        line.append(
          contentsOf: UnsafeBufferPointer(
            start: name, count: Int(sqlite3_column_bytes(statement, 3))))
      }
      line.append(UInt8(ascii: "\n"))
    }
    flush()
    return 0
  }
}

/// A process started for a measurement, with its standard output to `/dev/null` or read.
private enum Child {
  /// Runs `arguments` to the end, its output to `/dev/null`, or until it has printed
  /// `untilLines` lines (then it is killed): the time that took, and its peak memory.
  ///
  /// NB: the peak memory is read by `/usr/bin/time` (0 without it), which forks the process:
  /// one this process spawns starts with this process's peak as its own (Linux keeps the peak
  /// across `exec`, and `posix_spawn` runs the new program in this process's memory until
  /// then), so `wait4`'s figure would be this benchmark's 200 MB, whatever the child used.
  static func run(_ arguments: [String], untilLines: Int? = nil) throws -> (
    seconds: Double, peakKiB: Int
  ) {
    let timer = "/usr/bin/time"
    let report = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-bench-peak-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: report) }
    let timed =
      untilLines == nil && FileManager.default.isExecutableFile(atPath: timer)
      ? [timer, "-f", "%M", "-o", report] + arguments : arguments
    let (seconds, _) = try spawn(timed, untilLines: untilLines)
    let peak =
      (try? String(contentsOfFile: report, encoding: .utf8))
      .flatMap { Int($0.split(separator: "\n").last ?? "") } ?? 0
    return (seconds, peak)
  }

  private static func spawn(_ arguments: [String], untilLines: Int?) throws -> (
    seconds: Double, peakKiB: Int
  ) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pipeEnds: [Int32] = [-1, -1]
    if untilLines != nil {
      guard pipe(&pipeEnds) == 0 else {
        throw PersistenceBenchmarks.Failure(description: "cannot make a pipe")
      }
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
      posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
      posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else {
      throw PersistenceBenchmarks.Failure(description: "cannot start \(arguments[0])")
    }
    var seconds: Double?
    if let untilLines {
      close(pipeEnds[1])
      var lines = 0
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while lines < untilLines {
        let count = read(pipeEnds[0], &buffer, buffer.count)
        guard count > 0 else { break }
        lines += buffer[0..<count].count { $0 == UInt8(ascii: "\n") }
      }
      seconds = Self.seconds(ContinuousClock.now - start)
      kill(pid, SIGKILL)
      close(pipeEnds[0])
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let elapsed = seconds ?? Self.seconds(ContinuousClock.now - start)
    guard untilLines != nil || status == 0 else {
      throw PersistenceBenchmarks.Failure(description: "\(arguments.joined(separator: " ")) failed")
    }
    return (elapsed, Int(usage.ru_maxrss))
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
