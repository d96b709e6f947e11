import Foundation
import Loop
import LoopTesting
import Testing

/// One generated call of a differential test: an endpoint with its arguments, run with a fixed
/// new id, date and time zone (UTC), so that every storage it runs on draws the same.
public struct GeneratedCall<Clients: Sendable>: Sendable {
  /// The endpoint's name, for a failure's message.
  public let name: String
  private let id: UUID
  private let date: Date
  private let body: @Sendable (Clients) async throws -> any Sendable

  /// A call of `name`, giving `id` and `date` to what it stores.
  public init(
    _ name: String, id: UUID, date: Date,
    _ body: @escaping @Sendable (Clients) async throws -> any Sendable
  ) {
    self.name = name
    self.id = id
    self.date = date
    self.body = body
  }

  /// The call's answer on `clients`: what it returned, or the error it threw.
  public func run(on clients: Clients) async -> Answer {
    await withDependencies {
      $0.uuid = .constant(id)
      $0.date = .constant(date)
      $0.timeZone = .utc
    } operation: {
      do {
        return Answer(value: try await body(clients))
      } catch {
        return Answer(value: error)
      }
    }
  }
}

/// What a call answered, compared by its full description (every field of every model, or the
/// error's case and payload).
public struct Answer: Equatable, CustomStringConvertible, Sendable {
  /// The returned value, or the thrown error.
  public let value: any Sendable

  /// The value's description, as `String(reflecting:)` gives it.
  public var description: String { String(reflecting: value) }

  /// Whether the two answers describe the same value.
  public static func == (lhs: Answer, rhs: Answer) -> Bool { lhs.description == rhs.description }
}

/// Runs `count` generated calls on `subject` and on each of `references`, requiring the same
/// answer from all, call after call; `next` draws each call, and learns from the answer what
/// later calls may use.
public func requireSameAnswers<Clients: Sendable>(
  of subject: Clients, as references: [Clients], calls count: Int, seed: UInt64,
  next: (inout SplitMix64, Answer?) -> GeneratedCall<Clients>,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  var random = SplitMix64(seed: seed)
  var last: Answer?
  for step in 0..<count {
    let call = next(&random, last)
    let expected = await call.run(on: references[0])
    for (index, reference) in references.enumerated().dropFirst() {
      let answer = await call.run(on: reference)
      try #require(
        answer == expected, "call \(step), \(call.name), on reference \(index), seed \(seed)",
        sourceLocation: sourceLocation)
    }
    let answer = await call.run(on: subject)
    try #require(
      answer == expected, "call \(step), \(call.name), seed \(seed)",
      sourceLocation: sourceLocation)
    last = answer
  }
}
