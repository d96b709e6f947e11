import LoopTesting
import Synchronization
import TestSupport
import Testing

@testable import Loop

/// `.case(Enum.x)` extracts by the enum's tag and projects the payload out of the value: these
/// tests check it against the explicit pattern match, over the zoo of `CasePathZoo.swift`.
@Suite struct CasePathExtractionTests {
  typealias Base = CaseZoo.Base
  typealias Boxed = CaseZoo.Boxed
  typealias Either = CaseZoo.Either
  typealias Mixed = CaseZoo.Mixed
  typealias Parent = CaseZoo.Parent

  /// Values per zoo enum and seed.
  static let rounds = 1_500

  @Test(arguments: CaseZoo.all, [1, 2, 3] as [UInt64])
  func oneLinePathAgreesWithPatternMatch(zoo: ZooEnum, seed: UInt64) {
    let mismatches = zoo.run(seed, Self.rounds)
    #expect(mismatches.isEmpty, "\(zoo.name), seed \(seed):\n\(mismatches.joined(separator: "\n"))")
  }

  @Test func everyZooEnumIsReadByTagNotMirror() {
    // NB: the differential test passes on the `Mirror` fallback too; this checks it is not used.
    let types: [Any.Type] = [
      Mixed.self, Boxed.self, CaseZoo.Tree.self, CaseZoo.Existentials.self, CaseZoo.Classes.self,
      Either<Int, Int>.self, Either<String, [Int]>.self, Either<Void, Int>.self,
      Either<Base, Base>.self, Either<UInt8, UInt8>.self, Parent.self, CaseZoo.Zero.self,
      CaseZoo.Callbacks.self, CaseZoo.Big.self, CaseZoo.Outer<String>.Inner.self,
      CaseZoo.OnlyOne.self, CaseZoo.OnlyBoxed.self, CaseZoo.OnlyEmpty.self,
      CaseZoo.SinglePayload.self, Int?.self, Mixed?.self, Result<Int, CaseZoo.Failure>.self,
      IdentifiedAction<Int, Mixed>.self,
    ]
    for type in types { #expect(EnumLayout.of(type) != nil, "\(type)") }
  }

  @Test func aMismatchIsReported() {
    // NB: a deliberately wrong "explicit" extraction proves the harness can fail.
    let wrong = Probe<Mixed>("int, wrong", .case(Mixed.int)) {
      if case .otherInt(let value) = $0 { value } else { nil }
    }
    var rng = SplitMix64(seed: 1)
    let mismatches = (0..<200).compactMap { _ in wrong.check(.random(&rng), false) }
    let first = mismatches.first ?? ""
    #expect(first.hasPrefix("int, wrong: for ") && first.contains(", the pattern match gives "))
  }

  /// Cases that share a base name and differ only in labels (which `Mirror` names alike, and
  /// Swift cannot yet tell apart in a pattern, so the zoo leaves them out).
  enum Overloaded: Equatable {
    case value(a: Int)
    case value(b: Int)
  }

  @Test func casesDifferingOnlyInLabelsAreDistinct() {
    let a = CasePath<Overloaded, Int>.case(Overloaded.value(a:))
    let b = CasePath<Overloaded, Int>.case(Overloaded.value(b:))
    #expect(a.extract(.value(b: 1)) == nil)
    #expect(a.extract(.value(a: 2)) == 2)
    #expect(b.extract(.value(b: 3)) == 3)
    #expect(b.extract(.value(a: 4)) == nil)
  }

  enum Command: Equatable {
    case pair(Int, String)
    case nothing
    case child(Overloaded)
  }

  @Test func casesKnownNeverToHoldTheValueAreRefusedBeforeTheCaseIsLearned() {
    let extractor = CaseExtractor<Command, Overloaded>(embed: Command.child)
    for _ in 0..<2 {
      #expect(extractor.extract(.pair(1, "a")) == nil)
      #expect(extractor.extract(.nothing) == nil)
    }
    // NB: the pair is a tuple, which no cast turns into an enum; `nothing` has no payload.
    #expect(extractor.refused.load(ordering: .relaxed).nonzeroBitCount == 2)
    #expect(extractor.extract(.child(.value(a: 3))) == .value(a: 3))
    #expect(extractor.extract(.pair(2, "b")) == nil)
  }

  @Test func aTupleThatMayCastIsNotRefused() {
    let extractor = CaseExtractor<CaseZoo.Either<(Int, Int), Any>, Any>(embed: { .right($0) })
    #expect(extractor.extract(.left((1, 2))) == nil)
    #expect(extractor.refused.load(ordering: .relaxed) == 0)
  }

  @Test func extractionRetainsAndReleasesPayloadsExactly() {
    weak var weakBase: Base?
    weak var weakBoxed: Base?
    do {
      let base = Base(1)
      let boxed = Base(2)
      weakBase = base
      weakBoxed = boxed
      let either = CasePath<Either<Base, Base>, Base>.case(Either.right)
      let tuple = CasePath<Boxed, (Int, String?, Base?)>.case(Boxed.tuple)
      for _ in 0..<1_000 {
        #expect(either.extract(.right(base)) === base)
        #expect(either.extract(.left(base)) == nil)
        #expect(tuple.extract(.tuple(1, nil, boxed))?.2 === boxed)
      }
    }
    #expect(weakBase == nil, "the payload leaked")
    #expect(weakBoxed == nil, "the boxed payload leaked")
  }

  @Test func concurrentFirstExtractionsAgree() async {
    let path = CasePath<Parent, IdentifiedAction<Int, Mixed>>.case(Parent.rows)
    let wrongCases = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var rng = SplitMix64(seed: UInt64(task))
          var wrong = 0
          for _ in 0..<2_000 {
            let root = Parent.random(&rng)
            let expected: IdentifiedAction<Int, Mixed>? =
              if case .rows(let action) = root { action } else { nil }
            if path.extract(root) != expected { wrong += 1 }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrongCases == 0)
  }

  @Test func aFunctionPayloadIsRefusedWithAnExplanation() async {
    // NB: an enum holds a function in a form generic code cannot call; the one-line path stops
    // the program rather than hand out a function that misbehaves.
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let path = CasePath<CaseZoo.Callbacks, @Sendable (Int) -> Int>.case(
        CaseZoo.Callbacks.transform)
      _ = path.extract(.transform { $0 + 1 })
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "CasePath.case(_:) cannot extract a payload of type '@Sendable (Int) -> Int' from 'Callbacks'"
      ))
  }

  @Test func pathIntoAStructExtractsNothing() {
    struct Wrapper: Sendable { var value: Int }
    let path = CasePath<Wrapper, Int>.case { Wrapper(value: $0) }
    #expect(path.extract(Wrapper(value: 1)) == nil)
    #expect(path.embed(2).value == 2)
  }

  @Test func appendingExtractsThroughBothCases() {
    let path = CasePath<Parent, Mixed>.case(Parent.child)
      .appending(path: .case(Mixed.labelled))
    let value = path.extract(.child(.labelled(id: 1, name: "a")))
    #expect(value?.0 == 1 && value?.1 == "a")
    #expect(path.extract(.child(.int(1))) == nil, "inner case differs")
    #expect(path.extract(.optionalChild(.labelled(id: 1, name: "a"))) == nil, "outer differs")
  }

  @Test func appendingEmbedsThroughBothCases() {
    let path = CasePath<Parent, Mixed>.case(Parent.child).appending(path: .case(Mixed.int))
    guard case .child(.int(3)) = path.embed(3) else {
      Issue.record("embedded \(path.embed(3))")
      return
    }
  }
}

// MARK: - The differential harness

/// One case path under test: the one-line form beside the explicit pattern match.
final class Probe<Root> {
  let name: String
  /// Compares the one-line path with the pattern match for `root`, returning the mismatch.
  ///
  /// `renew` starts the long-lived path over, so it learns its case again from whatever comes
  /// next.
  let check: (_ root: Root, _ renew: Bool) -> String?

  init<Value>(
    _ name: String, _ make: @autoclosure @escaping () -> CasePath<Root, Value>,
    same: @escaping (Value, Value) -> Bool, explicit: @escaping (Root) -> Value?
  ) {
    self.name = name
    var path = make()
    func agree(_ a: Value?, _ b: Value?) -> Bool {
      switch (a, b) {
      case (nil, nil): true
      case (let a?, let b?): same(a, b)
      default: false
      }
    }
    check = { root, renew in
      if renew { path = make() }
      let expected = explicit(root)
      let learned = path.extract(root)
      let fresh = make().extract(root)
      guard agree(expected, learned), agree(expected, fresh) else {
        return "\(name): for \(root), the pattern match gives \(String(describing: expected)), "
          + "the path \(String(describing: learned)), a new path \(String(describing: fresh))"
      }
      if let expected, !agree(expected, path.extract(path.embed(expected))) {
        return "\(name): \(expected) does not survive embed then extract"
      }
      return nil
    }
  }

  convenience init<Value: Equatable>(
    _ name: String, _ make: @autoclosure @escaping () -> CasePath<Root, Value>,
    explicit: @escaping (Root) -> Value?
  ) {
    self.init(name, make(), same: ==, explicit: explicit)
  }
}

/// The paths of a `Void` case, which compare case tags.
func voidProbe<Root>(
  _ name: String, _ make: @autoclosure @escaping () -> CasePath<Root, Void>,
  explicit: @escaping (Root) -> Bool
) -> Probe<Root> {
  Probe(name, make(), same: alwaysSame) { explicit($0) ? () : nil }
}

/// Compares payloads that are not `Equatable` by their descriptions (the zoo's classes describe
/// themselves with their ids).
func described<T>(_ a: T, _ b: T) -> Bool { "\(a)" == "\(b)" }

/// Compares class payloads by identity.
func identical<T: AnyObject>(_ a: T, _ b: T) -> Bool { a === b }

/// Compares optional and existential class payloads by identity.
func sameObject(_ a: AnyObject?, _ b: AnyObject?) -> Bool { a === b }

/// Compares payloads with a single value (`Void`, a type with no stored properties).
func alwaysSame<T>(_: T, _: T) -> Bool { true }

/// A zoo enum: how to make random values, and its probes.
struct ZooEnum: Sendable, CustomTestStringConvertible {
  let name: String
  /// Runs `rounds` random values through every probe; returns the mismatches.
  let run: @Sendable (_ seed: UInt64, _ rounds: Int) -> [String]

  var testDescription: String { name }

  init<Root>(
    _ name: String, random: @escaping @Sendable (inout SplitMix64) -> Root,
    probes: @escaping @Sendable () -> [Probe<Root>]
  ) {
    self.name = name
    run = { seed, rounds in
      var rng = SplitMix64(seed: seed)
      let probes = probes()
      var mismatches: [String] = []
      for _ in 0..<rounds {
        let root = random(&rng)
        for probe in probes {
          // NB: now and then a path starts over, so paths learn from every kind of first value.
          if let mismatch = probe.check(root, Int.random(in: 0..<16, using: &rng) == 0) {
            mismatches.append(mismatch)
          }
        }
        if mismatches.count > 20 { break }
      }
      return mismatches
    }
  }
}
