import Foundation
import HabitClient
import LedgerClient
import LinkClient
import Loop

/// Import and export: bookmarks, CSV and Loop's own JSON in, everything out.
///
/// Each REPL command is one action, and the REPL reads the result from the state; a failure it
/// reads as the typed error of the response (``Action/importResponse(_:)``,
/// ``Action/exportResponse(_:)``), as it reads every client's:
///
/// - `link import FILE`, `ledger import FILE`, `import FILE`: ``Action/importSubmitted(_:)``
///   with the file's bytes (read with ``ImportFile/read(atPath:)``); while it runs,
///   ``State/progress`` counts the entries written (draw it as a progress bar); at the end,
///   ``State/report`` holds the summary, or ``State/failure`` why nothing was imported (with
///   every rejected row of a ledger import). `ledger import` reads a bank statement with its
///   ``ImportRequest/rules`` (hledger's ``CSVRules``), or with rules ``StatementDetector``
///   infers, into ``BankStatement``'s transactions.
/// - `export FILE`, `link export`, `habit export`, `ledger export`:
///   ``Action/exportSubmitted(_:)``; then ``State/exportedFile`` holds the bytes to write
///   (``ExportedFile/write(toPath:)``), or ``State/failure`` why not.
///
/// An import goes through the clients like every other change: the file is checked and read
/// first (a bad file is one clear error and writes nothing), then each domain's entries are
/// written by its client in one storage transaction, in batches that report progress. After a
/// real (not dry) import, ``Action/Delegate/reload(_:)`` tells the parent to reload what it
/// shows.
///
/// `link import` and `ledger import` are one transaction each: all or nothing, even if the
/// process is killed. A whole-database import (``DataScope/everything``) is one transaction per
/// domain, links, then habits, then the ledger, since each client owns its storage: a domain
/// lands whole or not at all, and importing the same file again completes an interrupted import
/// (what is stored already is skipped as a duplicate).
public struct Interchange: Reducer, Sendable {
  /// The state of imports and exports.
  public struct State: Equatable, Sendable {
    /// Whether an import is under way.
    public var isImporting: Bool
    /// How far the running import has got; `nil` before its file is read and when none runs.
    public var progress: ImportProgress?
    /// The last import's summary; `nil` while one runs or after one failed.
    public var report: ImportReport?
    /// Whether an export is under way.
    public var isExporting: Bool
    /// The last export's file, to write; `nil` while one runs or after one failed.
    public var exportedFile: ExportedFile?
    /// Why the last import or export failed (nothing was written), shown in place of its
    /// summary or file; `nil` otherwise, and as soon as the next one starts.
    public var failure: InterchangeError?

    /// Creates the state; idle, with nothing imported or exported, by default.
    public init(
      isImporting: Bool = false, progress: ImportProgress? = nil, report: ImportReport? = nil,
      isExporting: Bool = false, exportedFile: ExportedFile? = nil,
      failure: InterchangeError? = nil
    ) {
      self.isImporting = isImporting
      self.progress = progress
      self.report = report
      self.isExporting = isExporting
      self.exportedFile = exportedFile
      self.failure = failure
    }
  }

  /// What happens in imports and exports.
  public enum Action: Equatable, Sendable {
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The export is ready, or failed.
    case exportResponse(Result<ExportedFile, InterchangeError>)
    /// The user asked for an export.
    case exportSubmitted(ExportRequest)
    /// The running import wrote another batch.
    case importProgressed(ImportProgress)
    /// The import finished, or failed (and wrote nothing).
    case importResponse(Result<ImportReport, InterchangeError>)
    /// The user asked to import a file.
    case importSubmitted(ImportRequest)

    /// What the parent is asked to do.
    public enum Delegate: Equatable, Sendable {
      /// Reload what shows `scope`: an import wrote into it.
      case reload(DataScope)
    }
  }

  @Dependency(\.calendar) var calendar
  @Dependency(\.continuousClock) var clock
  @Dependency(\.date) var date
  @Dependency(\.habitClient) var habitClient
  @Dependency(\.ledgerClient) var ledgerClient
  @Dependency(\.linkClient) var linkClient
  @Dependency(\.timeZone) var timeZone
  @Dependency(\.uuid) var uuid

  /// Creates the reducer.
  public init() {}

  /// The logic of imports and exports.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .exportResponse(.success(let file)):
        state.isExporting = false
        state.exportedFile = file
        return .none

      case .exportResponse(.failure(let error)):
        state.isExporting = false
        state.failure = error
        return .none

      case .exportSubmitted(let request):
        state.isExporting = true
        state.exportedFile = nil
        state.failure = nil
        let exporter = Exporter(
          linkClient: linkClient, habitClient: habitClient, ledgerClient: ledgerClient,
          now: date.now, calendar: userCalendar)
        return .run { send in
          do throws(InterchangeError) {
            let file = try await exporter.run(request)
            await send(.exportResponse(.success(file)))
          } catch {
            await send(.exportResponse(.failure(error)))
          }
        }

      case .importProgressed(let progress):
        state.progress = progress
        return .none

      case .importResponse(.success(let report)):
        state.isImporting = false
        state.progress = nil
        state.report = report
        return report.isDryRun ? .none : .send(.delegate(.reload(report.scope)))

      case .importResponse(.failure(let error)):
        state.isImporting = false
        state.progress = nil
        state.failure = error
        return .none

      case .importSubmitted(let request):
        state.isImporting = true
        state.progress = nil
        state.report = nil
        state.failure = nil
        let importer = Importer(
          linkClient: linkClient, habitClient: habitClient, ledgerClient: ledgerClient,
          now: date.now, calendar: userCalendar, uuid: uuid)
        return .run { send in
          let (updates, continuation) = AsyncStream.makeStream(of: ImportProgress.self)
          async let outcome = Self.outcome(of: request, importer, clock, continuation)
          for await progress in updates {
            await send(.importProgressed(progress))
          }
          await send(.importResponse(await outcome))
        }

      case .delegate:
        return .none
      }
    }
  }

  /// The user's calendar in the user's time zone.
  private var userCalendar: Calendar {
    var calendar = calendar
    calendar.timeZone = timeZone
    return calendar
  }

  /// Runs an import, timed on `clock`, yielding its progress to `updates` and finishing them
  /// when it ends.
  @concurrent
  private static func outcome(
    of request: ImportRequest, _ importer: Importer, _ clock: any Clock<Duration>,
    _ updates: AsyncStream<ImportProgress>.Continuation
  ) async -> Result<ImportReport, InterchangeError> {
    defer { updates.finish() }
    do {
      let (report, duration) = try await timed(on: clock) { () throws(InterchangeError) in
        try await importer.run(request) { updates.yield($0) }
      }
      var timedReport = report
      timedReport.duration = duration
      return .success(timedReport)
    } catch {
      return .failure(error)
    }
  }
}

/// Runs `body` and measures it on `clock`.
private func timed<C: Clock<Duration>, T>(
  on clock: C, _ body: () async throws(InterchangeError) -> T
) async throws(InterchangeError) -> (T, Duration) {
  let start = clock.now
  let value = try await body()
  return (value, start.duration(to: clock.now))
}
