import Loop
import TestSupport

// A zoo of enums with payloads of every shape, each with its one-line case paths paired with the
// explicit pattern match they must agree with. `CasePathExtractionTests` drives them with seeded
// random values.

/// The zoo's random payloads.
extension SplitMix64 {
  /// One of `count` choices.
  mutating func choice(_ count: Int) -> Int { Int.random(in: 0..<count, using: &self) }

  mutating func int() -> Int { Int.random(in: -1_000...1_000, using: &self) }

  mutating func bool() -> Bool { Bool.random(using: &self) }

  /// Empty, short (stored inline), long (on the heap) and non-ASCII strings.
  mutating func string() -> String {
    switch choice(4) {
    case 0: ""
    case 1: "s\(int())"
    case 2: String(repeating: "long string \(int()) ", count: 3)
    default: "héllo 🌍 \(int())"
    }
  }
}

/// The zoo's types.
enum CaseZoo {
  /// A class payload, compared by identity.
  class Base: CustomStringConvertible, @unchecked Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
    var description: String { "\(type(of: self))#\(id)" }
  }

  /// A subclass, for payloads typed as the superclass.
  final class Sub: Base, @unchecked Sendable {}

  /// A protocol for existential payloads.
  protocol Shape: CustomStringConvertible {}

  /// A class-constrained protocol for existential payloads.
  protocol ClassShape: AnyObject, CustomStringConvertible {}

  struct Circle: Shape, Equatable, Sendable {
    var radius: Int
    var description: String { "Circle(\(radius))" }
  }

  struct Square: Shape, Sendable {
    var side: String
    var description: String { "Square(\(side))" }
  }

  final class Node: ClassShape, @unchecked Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
    var description: String { "Node#\(id)" }
  }

  struct Failure: Error, Equatable {
    var code: Int
  }

  /// A payload type that takes no space.
  struct Nothing: Equatable, Sendable {}

  /// A payload too large to fit in a few words.
  struct Large: Equatable, Sendable {
    var a: String
    var b: [Int]
    var c: String?
    var d: Int

    static func random(_ rng: inout SplitMix64) -> Large {
      Large(
        a: rng.string(), b: Array(0..<(rng.int() & 7)), c: rng.bool() ? rng.string() : nil,
        d: rng.int())
    }
  }

  // MARK: - The enums

  /// Cases with and without payloads interleaved (tags number the payload cases first), two
  /// cases with the same payload type, tuples with and without labels, an optional payload.
  enum Mixed: Equatable, Sendable {
    case first
    case int(Int)
    case otherInt(Int)
    case middle
    case string(String)
    case pair(Int, String)
    case labelled(id: Int, name: String)
    case single(value: Int)
    case optional(Int?)
    case last

    static func random(_ rng: inout SplitMix64) -> Mixed {
      switch rng.choice(10) {
      case 0: .first
      case 1: .int(rng.int())
      case 2: .otherInt(rng.int())
      case 3: .middle
      case 4: .string(rng.string())
      case 5: .pair(rng.int(), rng.string())
      case 6: .labelled(id: rng.int(), name: rng.string())
      case 7: .single(value: rng.int())
      case 8: .optional(rng.bool() ? rng.int() : nil)
      default: .last
      }
    }
  }

  /// `indirect` cases (payloads in heap boxes) beside direct ones.
  enum Boxed {
    indirect case boxed(Int)
    case direct(Int)
    indirect case tuple(Int, String?, Base?)
    indirect case label(value: String)
    indirect case existential(any Shape)
    indirect case recursive(Boxed)
    indirect case empty(Nothing)
    indirect case aligned(SIMD4<Float>)
    case none

    static func random(_ rng: inout SplitMix64) -> Boxed { random(&rng, depth: 0) }

    static func random(_ rng: inout SplitMix64, depth: Int) -> Boxed {
      switch rng.choice(9) {
      case 0: .boxed(rng.int())
      case 1: .direct(rng.int())
      case 2:
        .tuple(rng.int(), rng.bool() ? rng.string() : nil, rng.bool() ? Base(rng.int()) : nil)
      case 3: .label(value: rng.string())
      case 4: .existential(rng.bool() ? Circle(radius: rng.int()) : Square(side: rng.string()))
      case 5: depth < 3 ? .recursive(random(&rng, depth: depth + 1)) : .none
      case 6: .empty(Nothing())
      case 7: .aligned(SIMD4(Float(rng.int()), 1, 2, 3))
      default: .none
      }
    }
  }

  /// A fully indirect, recursive enum.
  indirect enum Tree: Equatable, Sendable {
    case leaf(Int)
    case node(Tree, Tree)
    case empty

    static func random(_ rng: inout SplitMix64) -> Tree { random(&rng, depth: 0) }

    static func random(_ rng: inout SplitMix64, depth: Int) -> Tree {
      switch rng.choice(3) {
      case 0: .leaf(rng.int())
      case 1 where depth < 4:
        .node(random(&rng, depth: depth + 1), random(&rng, depth: depth + 1))
      default: .empty
      }
    }
  }

  /// Existential payloads of every representation: opaque, class-bound, error, metatype.
  enum Existentials {
    case any(Any)
    case shape(any Shape)
    case object(AnyObject)
    case error(any Error)
    case classBound(any ClassShape)
    case hashable(AnyHashable)
    case composition(any Shape & Sendable)
    case metatype(Any.Type)

    static func random(_ rng: inout SplitMix64) -> Existentials {
      switch rng.choice(8) {
      case 0: .any(randomAny(&rng))
      case 1: .shape(rng.bool() ? Circle(radius: rng.int()) : Square(side: rng.string()))
      case 2: .object(rng.bool() ? Base(rng.int()) : Node(rng.int()))
      case 3: .error(Failure(code: rng.int()))
      case 4: .classBound(Node(rng.int()))
      case 5: .hashable(rng.bool() ? AnyHashable(rng.int()) : AnyHashable(rng.string()))
      case 6: .composition(Circle(radius: rng.int()))
      default: .metatype(rng.bool() ? Int.self : String.self)
      }
    }

    static func randomAny(_ rng: inout SplitMix64) -> Any {
      switch rng.choice(6) {
      case 0: rng.int()
      case 1: rng.string()
      case 2: Base(rng.int())
      case 3: Int?.none as Any
      case 4: Int?.some(rng.int()) as Any
      default: (rng.int(), rng.string())
      }
    }
  }

  /// Class payloads, a subclass, an optional class.
  enum Classes {
    case base(Base)
    case sub(Sub)
    case maybe(Base?)
    case pair(Base, Sub)

    static func random(_ rng: inout SplitMix64) -> Classes {
      switch rng.choice(4) {
      case 0: .base(rng.bool() ? Base(rng.int()) : Sub(rng.int()))
      case 1: .sub(Sub(rng.int()))
      case 2: .maybe(rng.bool() ? Base(rng.int()) : nil)
      default: .pair(Base(rng.int()), Sub(rng.int()))
      }
    }
  }

  /// A generic enum; its instances cover two cases of one type, pointer spare bits, extra tag
  /// bytes, and payloads that take no space.
  enum Either<Left, Right> {
    case left(Left)
    case right(Right)
    case neither

    static func random(
      _ rng: inout SplitMix64, left: (inout SplitMix64) -> Left,
      right: (inout SplitMix64) -> Right
    ) -> Either {
      switch rng.choice(3) {
      case 0: .left(left(&rng))
      case 1: .right(right(&rng))
      default: .neither
      }
    }
  }

  /// Another feature's enums nested in a feature-shaped `Action`.
  enum Parent {
    case child(Mixed)
    case rows(IdentifiedAction<Int, Mixed>)
    case optionalChild(Mixed?)
    case tree(Tree)
    case delegate(Delegate)
    case task

    enum Delegate: Equatable {
      case done
      case saved(String)
    }

    static func random(_ rng: inout SplitMix64) -> Parent {
      switch rng.choice(6) {
      case 0: .child(.random(&rng))
      case 1: .rows(.element(id: rng.int(), action: .random(&rng)))
      case 2: .optionalChild(rng.bool() ? .random(&rng) : nil)
      case 3: .tree(.random(&rng))
      case 4: .delegate(rng.bool() ? .done : .saved(rng.string()))
      default: .task
      }
    }
  }

  /// Payloads that take no space, which the compiler may number with the cases without one.
  enum Zero: Sendable {
    case void(Void)
    case empty(Nothing)
    case int(Int)
    case nothing
    case never(Never)

    static func random(_ rng: inout SplitMix64) -> Zero {
      switch rng.choice(4) {
      case 0: .void(())
      case 1: .empty(Nothing())
      case 2: .int(rng.int())
      default: .nothing
      }
    }
  }

  /// Payloads stored in a form generic code cannot read (functions, a struct's metatype, which
  /// takes no space) beside ones it can: paths to the others never read them.
  enum Callbacks {
    case transform(@Sendable (Int) -> Int)
    case type(Int.Type)
    case pair(Int, Int.Type)
    case maybe(((Int) -> Int)?)
    case value(Int)
    case metatype(Any.Type)

    static func random(_ rng: inout SplitMix64) -> Callbacks {
      let n = rng.int()
      switch rng.choice(6) {
      case 0: return .transform { $0 + n }
      case 1: return .type(Int.self)
      case 2: return .pair(n, Int.self)
      case 3: return .maybe(rng.bool() ? { $0 * n } : nil)
      case 4: return .value(n)
      default: return .metatype(rng.bool() ? Int.self : Base.self)
      }
    }
  }

  /// Large payloads beside a small one.
  enum Big: Equatable {
    case large(Large)
    case small(Int)
    case two(Large, Large)

    static func random(_ rng: inout SplitMix64) -> Big {
      switch rng.choice(3) {
      case 0: .large(.random(&rng))
      case 1: .small(rng.int())
      default: .two(.random(&rng), .random(&rng))
      }
    }
  }

  /// A generic enum nested in another generic type.
  enum Outer<T> {
    enum Inner {
      case value(T)
      case pair(T, T)
      case none
    }
  }

  /// Enums of a single case.
  enum OnlyOne: Equatable, Sendable {
    case only(String)
  }

  indirect enum OnlyBoxed: Equatable, Sendable {
    case only(Int)
  }

  enum OnlyEmpty: Equatable, Sendable {
    case only
  }

  /// A single payload case beside cases without one (kept in the payload's extra inhabitants).
  enum SinglePayload: Sendable {
    case value(Base)
    case a
    case b
  }

  /// One value of each single-case and single-payload enum.
  typealias Singles = (OnlyOne, OnlyBoxed, SinglePayload, OnlyEmpty)

  static func randomSingles(_ rng: inout SplitMix64) -> Singles {
    let payload: SinglePayload =
      switch rng.choice(3) {
      case 0: .value(Base(rng.int()))
      case 1: .a
      default: .b
      }
    return (.only(rng.string()), .only(rng.int()), payload, .only)
  }
}

extension CaseZoo.Either: Sendable where Left: Sendable, Right: Sendable {}

extension CaseZoo {
  static let all: [ZooEnum] = [
    mixed, boxed, tree, existentials, classes, eitherIntInt, eitherStringArray, eitherVoid,
    eitherClasses, eitherBytes, parent, zero, callbacks, big, nestedGeneric, single,
    optionals, result,
  ]

  static let mixed = ZooEnum("Mixed", random: Mixed.random) { () -> [Probe<Mixed>] in
    [
      Probe("int", .case(Mixed.int)) { if case .int(let v) = $0 { v } else { nil } },
      Probe("otherInt", .case(Mixed.otherInt)) {
        if case .otherInt(let v) = $0 { v } else { nil }
      },
      Probe("string", .case(Mixed.string)) { if case .string(let v) = $0 { v } else { nil } },
      Probe("pair", .case(Mixed.pair), same: ==) {
        if case .pair(let a, let b) = $0 { (a, b) } else { nil }
      },
      Probe("labelled, unlabelled value", .case(Mixed.labelled), same: ==) {
        if case .labelled(let a, let b) = $0 { (a, b) } else { nil }
      },
      Probe(
        "labelled, labelled value", CasePath<Mixed, (id: Int, name: String)>.case(Mixed.labelled),
        same: ==
      ) { if case .labelled(let a, let b) = $0 { (id: a, name: b) } else { nil } },
      Probe("single", .case(Mixed.single)) {
        if case .single(let v) = $0 { v } else { nil }
      },
      Probe("optional", .case(Mixed.optional)) {
        if case .optional(let v) = $0 { v } else { nil }
      },
      Probe("optional, as its wrapped value", CasePath<Mixed, Int>.case(Mixed.optional)) {
        if case .optional(let v?) = $0 { v } else { nil }
      },
      voidProbe("first", .case(Mixed.first)) { $0 == .first },
      voidProbe("middle", .case(Mixed.middle)) { $0 == .middle },
      voidProbe("last", .case(Mixed.last)) { $0 == .last },
      voidProbe("int(3), as a case", .case(Mixed.int(3))) {
        if case .int = $0 { true } else { false }
      },
    ]
  }

  static let boxed = ZooEnum("Boxed", random: Boxed.random) { () -> [Probe<Boxed>] in
    [
      Probe("boxed", .case(Boxed.boxed)) { if case .boxed(let v) = $0 { v } else { nil } },
      Probe("direct", .case(Boxed.direct)) { if case .direct(let v) = $0 { v } else { nil } },
      Probe("tuple", .case(Boxed.tuple), same: described) {
        if case .tuple(let a, let b, let c) = $0 { (a, b, c) } else { nil }
      },
      Probe("label", .case(Boxed.label)) { if case .label(let v) = $0 { v } else { nil } },
      Probe("existential", .case(Boxed.existential), same: described) {
        if case .existential(let v) = $0 { v } else { nil }
      },
      Probe(
        "existential, as a concrete type", CasePath<Boxed, Circle>.case(Boxed.existential)
      ) {
        if case .existential(let v as Circle) = $0 { v } else { nil }
      },
      Probe("recursive", .case(Boxed.recursive), same: described) {
        if case .recursive(let v) = $0 { v } else { nil }
      },
      Probe("empty", .case(Boxed.empty)) { if case .empty(let v) = $0 { v } else { nil } },
      Probe("aligned", .case(Boxed.aligned)) {
        if case .aligned(let v) = $0 { v } else { nil }
      },
      Probe(
        "two levels",
        CasePath<Boxed, Boxed>.case(Boxed.recursive).appending(path: .case(Boxed.boxed))
      ) {
        if case .recursive(.boxed(let v)) = $0 { v } else { nil }
      },
    ]
  }

  static let tree = ZooEnum("Tree", random: Tree.random) { () -> [Probe<Tree>] in
    [
      Probe("leaf", .case(Tree.leaf)) { if case .leaf(let v) = $0 { v } else { nil } },
      Probe("node", .case(Tree.node), same: ==) {
        if case .node(let a, let b) = $0 { (a, b) } else { nil }
      },
      voidProbe("empty", .case(Tree.empty)) { $0 == .empty },
    ]
  }

  static let existentials = ZooEnum("Existentials", random: Existentials.random) {
    () -> [Probe<Existentials>] in
    [
      Probe("any", .case(Existentials.any), same: described) {
        if case .any(let v) = $0 { v } else { nil }
      },
      Probe("any, as Int", CasePath<Existentials, Int>.case(Existentials.any)) {
        if case .any(let v as Int) = $0 { v } else { nil }
      },
      Probe("shape", .case(Existentials.shape), same: described) {
        if case .shape(let v) = $0 { v } else { nil }
      },
      Probe("shape, as Circle", CasePath<Existentials, Circle>.case(Existentials.shape)) {
        if case .shape(let v as Circle) = $0 { v } else { nil }
      },
      Probe("object", .case(Existentials.object), same: identical) {
        if case .object(let v) = $0 { v } else { nil }
      },
      Probe(
        "object, as Base", CasePath<Existentials, Base>.case(Existentials.object),
        same: identical
      ) {
        if case .object(let v as Base) = $0 { v } else { nil }
      },
      Probe("error", .case(Existentials.error), same: described) {
        if case .error(let v) = $0 { v } else { nil }
      },
      Probe("error, as Failure", CasePath<Existentials, Failure>.case(Existentials.error)) {
        if case .error(let v as Failure) = $0 { v } else { nil }
      },
      Probe("classBound", .case(Existentials.classBound), same: sameObject) {
        if case .classBound(let v) = $0 { v } else { nil }
      },
      Probe("hashable", .case(Existentials.hashable)) {
        if case .hashable(let v) = $0 { v } else { nil }
      },
      Probe("hashable, as String", CasePath<Existentials, String>.case(Existentials.hashable)) {
        if case .hashable(let v) = $0 { v as? String } else { nil }
      },
      Probe("composition", .case(Existentials.composition), same: described) {
        if case .composition(let v) = $0 { v } else { nil }
      },
      Probe("metatype", .case(Existentials.metatype), same: ==) {
        if case .metatype(let v) = $0 { v } else { nil }
      },
    ]
  }

  static let classes = ZooEnum("Classes", random: Classes.random) { () -> [Probe<Classes>] in
    [
      Probe("base", .case(Classes.base), same: identical) {
        if case .base(let v) = $0 { v } else { nil }
      },
      Probe("base, as Sub", CasePath<Classes, Sub>.case(Classes.base), same: identical) {
        if case .base(let v as Sub) = $0 { v } else { nil }
      },
      Probe("sub", .case(Classes.sub), same: identical) {
        if case .sub(let v) = $0 { v } else { nil }
      },
      Probe("maybe", .case(Classes.maybe), same: sameObject) {
        if case .maybe(let v) = $0 { v } else { nil }
      },
      Probe("maybe, as Base", CasePath<Classes, Base>.case(Classes.maybe), same: identical) {
        if case .maybe(let v?) = $0 { v } else { nil }
      },
      Probe("pair", .case(Classes.pair), same: described) {
        if case .pair(let a, let b) = $0 { (a, b) } else { nil }
      },
    ]
  }

  static let eitherIntInt = ZooEnum("Either<Int, Int>", random: eitherIntIntRandom) {
    eitherProbes(same: ==)
  }

  static func eitherIntIntRandom(_ rng: inout SplitMix64) -> Either<Int, Int> {
    .random(&rng, left: { $0.int() }, right: { $0.int() })
  }

  static let eitherStringArray = ZooEnum("Either<String, [Int]>", random: eitherStringArrayRandom) {
    () -> [Probe<Either<String, [Int]>>] in
    [
      Probe("left", .case(Either<String, [Int]>.left)) {
        if case .left(let v) = $0 { v } else { nil }
      },
      Probe("right", .case(Either<String, [Int]>.right)) {
        if case .right(let v) = $0 { v } else { nil }
      },
    ]
  }

  static func eitherStringArrayRandom(_ rng: inout SplitMix64) -> Either<String, [Int]> {
    .random(&rng, left: { $0.string() }, right: { Array(0..<($0.int() & 15)) })
  }

  static let eitherVoid = ZooEnum("Either<Void, Int>", random: eitherVoidRandom) {
    () -> [Probe<Either<Void, Int>>] in
    [
      Probe("left", .case(Either<Void, Int>.left), same: alwaysSame) {
        if case .left(let v) = $0 { v } else { nil }
      },
      Probe("right", .case(Either<Void, Int>.right)) {
        if case .right(let v) = $0 { v } else { nil }
      },
    ]
  }

  static func eitherVoidRandom(_ rng: inout SplitMix64) -> Either<Void, Int> {
    .random(&rng, left: { _ in }, right: { $0.int() })
  }

  static let eitherClasses = ZooEnum("Either<Base, Base>", random: eitherClassesRandom) {
    eitherProbes(same: identical)
  }

  static func eitherClassesRandom(_ rng: inout SplitMix64) -> Either<Base, Base> {
    .random(&rng, left: { Base($0.int()) }, right: { Sub($0.int()) })
  }

  static let eitherBytes = ZooEnum("Either<UInt8, UInt8>", random: eitherBytesRandom) {
    eitherProbes(same: ==)
  }

  static func eitherBytesRandom(_ rng: inout SplitMix64) -> Either<UInt8, UInt8> {
    .random(&rng, left: { UInt8($0.int() & 255) }, right: { UInt8($0.int() & 255) })
  }

  static func eitherProbes<T: Sendable>(same: @escaping (T, T) -> Bool) -> [Probe<Either<T, T>>] {
    [
      Probe("left", .case(Either<T, T>.left), same: same) {
        if case .left(let v) = $0 { v } else { nil }
      },
      Probe("right", .case(Either<T, T>.right), same: same) {
        if case .right(let v) = $0 { v } else { nil }
      },
      voidProbe("neither", .case(Either<T, T>.neither)) {
        if case .neither = $0 { true } else { false }
      },
    ]
  }

  static let parent = ZooEnum("Parent", random: Parent.random) { () -> [Probe<Parent>] in
    [
      Probe("child", .case(Parent.child)) { if case .child(let v) = $0 { v } else { nil } },
      Probe("rows", .case(Parent.rows)) { if case .rows(let v) = $0 { v } else { nil } },
      Probe("optionalChild", .case(Parent.optionalChild)) {
        if case .optionalChild(let v) = $0 { v } else { nil }
      },
      Probe("tree", .case(Parent.tree)) { if case .tree(let v) = $0 { v } else { nil } },
      Probe("delegate", .case(Parent.delegate)) {
        if case .delegate(let v) = $0 { v } else { nil }
      },
      Probe(
        "child then int",
        CasePath<Parent, Mixed>.case(Parent.child).appending(path: .case(Mixed.int))
      ) {
        if case .child(.int(let v)) = $0 { v } else { nil }
      },
      Probe(
        "rows then element",
        CasePath<Parent, IdentifiedAction<Int, Mixed>>.case(Parent.rows)
          .appending(path: .case(IdentifiedAction.element)), same: ==
      ) { if case .rows(.element(let id, let action)) = $0 { (id, action) } else { nil } },
    ]
  }

  static let zero = ZooEnum("Zero", random: Zero.random) { () -> [Probe<Zero>] in
    [
      Probe("void", .case(Zero.void), same: alwaysSame) {
        if case .void(let v) = $0 { v } else { nil }
      },
      Probe("empty", .case(Zero.empty)) { if case .empty(let v) = $0 { v } else { nil } },
      Probe("int", .case(Zero.int)) { if case .int(let v) = $0 { v } else { nil } },
      voidProbe("nothing", .case(Zero.nothing)) {
        if case .nothing = $0 { true } else { false }
      },
    ]
  }

  static let callbacks = ZooEnum("Callbacks", random: Callbacks.random) {
    () -> [Probe<Callbacks>] in
    [
      Probe("value", .case(Callbacks.value)) { if case .value(let v) = $0 { v } else { nil } },
      Probe("metatype", .case(Callbacks.metatype), same: ==) {
        if case .metatype(let v) = $0 { v } else { nil }
      },
    ]
  }

  static let big = ZooEnum("Big", random: Big.random) { () -> [Probe<Big>] in
    [
      Probe("large", .case(Big.large)) { if case .large(let v) = $0 { v } else { nil } },
      Probe("small", .case(Big.small)) { if case .small(let v) = $0 { v } else { nil } },
      Probe("two", .case(Big.two), same: ==) {
        if case .two(let a, let b) = $0 { (a, b) } else { nil }
      },
    ]
  }

  static func nestedGenericRandom(_ rng: inout SplitMix64) -> Outer<String>.Inner {
    switch rng.choice(3) {
    case 0: .value(rng.string())
    case 1: .pair(rng.string(), rng.string())
    default: .none
    }
  }

  static let nestedGeneric = ZooEnum("Outer<String>.Inner", random: nestedGenericRandom) {
    () -> [Probe<Outer<String>.Inner>] in
    [
      Probe("value", .case(Outer<String>.Inner.value)) {
        if case .value(let v) = $0 { v } else { nil }
      },
      Probe("pair", .case(Outer<String>.Inner.pair), same: ==) {
        if case .pair(let a, let b) = $0 { (a, b) } else { nil }
      },
    ]
  }

  static let single = ZooEnum("single-case and single-payload enums", random: randomSingles) {
    () -> [Probe<Singles>] in
    [
      Probe("OnlyOne.only", part(\.0, of: exampleSingles, .case(OnlyOne.only))) {
        if case .only(let v) = $0.0 { v } else { nil }
      },
      Probe("OnlyBoxed.only", part(\.1, of: exampleSingles, .case(OnlyBoxed.only))) {
        if case .only(let v) = $0.1 { v } else { nil }
      },
      Probe(
        "SinglePayload.value", part(\.2, of: exampleSingles, .case(SinglePayload.value)),
        same: identical
      ) {
        if case .value(let v) = $0.2 { v } else { nil }
      },
      voidProbe("SinglePayload.b", part(\.2, of: exampleSingles, .case(SinglePayload.b))) {
        if case .b = $0.2 { true } else { false }
      },
      voidProbe("OnlyEmpty.only", part(\.3, of: exampleSingles, .case(OnlyEmpty.only))) { _ in true
      },
    ]
  }

  /// A path to a part of a tuple (a tuple is no enum), then into that part.
  static func part<Whole: Sendable, Part, Value>(
    _ member: WritableKeyPath<Whole, Part> & Sendable, of example: Whole,
    _ path: CasePath<Part, Value>
  ) -> CasePath<Whole, Value> {
    CasePath<Whole, Part>(
      embed: {
        var whole = example
        whole[keyPath: member] = $0
        return whole
      },
      extract: { $0[keyPath: member] }
    ).appending(path: path)
  }

  /// One value of each of `Singles`' enums, for embedding.
  static let exampleSingles: Singles = (.only(""), .only(0), .a, .only)

  typealias Optionals = (Int?, Mixed?)

  static func optionalsRandom(_ rng: inout SplitMix64) -> Optionals {
    (rng.bool() ? rng.int() : nil, rng.bool() ? Mixed.random(&rng) : nil)
  }

  static let optionals = ZooEnum("Optional", random: optionalsRandom) {
    () -> [Probe<Optionals>] in
    [
      Probe("Int?.some", part(\.0, of: (nil, nil), .case(Int?.some))) { $0.0 },
      voidProbe("Int?.none", part(\.0, of: (nil, nil), .case(Int?.none))) { $0.0 == nil },
      Probe("Mixed?.some", part(\.1, of: (nil, nil), .case(Mixed?.some))) { $0.1 },
    ]
  }

  static func resultRandom(_ rng: inout SplitMix64) -> Result<Int, Failure> {
    rng.bool() ? .success(rng.int()) : .failure(Failure(code: rng.int()))
  }

  static let result = ZooEnum("Result<Int, Failure>", random: resultRandom) {
    () -> [Probe<Result<Int, Failure>>] in
    [
      Probe("success", .case(Result<Int, Failure>.success)) { try? $0.get() },
      Probe("failure", .case(Result<Int, Failure>.failure)) {
        if case .failure(let e) = $0 { e } else { nil }
      },
    ]
  }
}
