// swift-tools-version:6.0
import PackageDescription

/// A feature or client module: sources in `Features/<name>/Sources`, tests beside them in
/// `Features/<name>/Tests`, tested with `LoopTesting` (plus `testDependencies`, when a test
/// target needs more; say why where it is used).
func feature(
  _ name: String, dependencies: [Target.Dependency], testDependencies: [Target.Dependency] = []
) -> [Target] {
  [
    .target(name: name, dependencies: dependencies, path: "Features/\(name)/Sources"),
    .testTarget(
      name: "\(name)Tests", dependencies: [.target(name: name), "LoopTesting"] + testDependencies,
      path: "Features/\(name)/Tests"),
  ]
}

/// A client split as isowords splits its clients: the interface `<name>` in
/// `Features/<name>/Sources` (its endpoints, models, errors and test value, on Loop alone, which
/// features import), the live `<name>Live` in `Features/<name>/Live` (the implementation on
/// Persistence and the live value, which only the app's composition, the benchmarks and the
/// tests import), and one test target for both in `Features/<name>/Tests`.
///
/// NB: one test target, not one per module: the tests of the models and of the storage share
/// fixtures, and each target is one more link on a small machine.
func client(
  _ name: String, dependencies: [Target.Dependency] = [],
  liveDependencies: [Target.Dependency] = []
) -> [Target] {
  [
    .target(name: name, dependencies: ["Loop"] + dependencies, path: "Features/\(name)/Sources"),
    .target(
      name: "\(name)Live",
      dependencies: [.target(name: name), "Loop", "Persistence"] + liveDependencies,
      path: "Features/\(name)/Live"),
    // NB: the tests open containers (in memory, and SQLite on a temporary file) and build the
    // clients with `live(context:)`, exactly as the app does, so they import Persistence.
    .testTarget(
      name: "\(name)Tests",
      dependencies: [
        .target(name: name), .target(name: "\(name)Live"), "LoopTesting", "Persistence",
        "TestSupport",
      ],
      path: "Features/\(name)/Tests"),
  ]
}

/// The app's domains, in dependency order: clients first, then the features built on them.
///
/// NB: the tests that share helpers (the client harness, the links fixture, the day helpers,
/// the seeded generator) get them from `TestSupport`, which is built only for tests.
let features: [Target] =
  client("LinkClient")
  + client(
    "CategoryClient", dependencies: ["LinkClient"],
    liveDependencies: ["LinkClient", "LinkClientLive"])
  // NB: the editors of links and transactions are one generic reducer, each with its check.
  + feature("DraftEditor", dependencies: ["Loop"], testDependencies: ["TestSupport"])
  // NB: a feature imports its clients' interfaces only: their models, errors and test values,
  // on Loop alone (`ModelID`, `StorageFailing` and `Result(catching:)` are Loop's).
  + feature(
    "Categories", dependencies: ["Loop", "LinkClient", "CategoryClient"],
    testDependencies: ["TestSupport"])
  + feature(
    "LinkList",
    dependencies: ["Loop", "LinkClient", "CategoryClient", "Categories", "DraftEditor"],
    testDependencies: ["TestSupport"])
  + client("HabitClient")
  + feature("Habits", dependencies: ["Loop", "HabitClient"], testDependencies: ["TestSupport"])
  + client("LedgerClient")
  + feature(
    "Ledger", dependencies: ["Loop", "LedgerClient", "DraftEditor"],
    testDependencies: ["TestSupport"])
  + feature(
    "Interchange", dependencies: ["Loop", "LinkClient", "HabitClient", "LedgerClient", "Ledger"],
    testDependencies: ["TestSupport"])
  // NB: the tests run the features on clients over in-memory storage, from TestSupport.
  + feature(
    "AppFeature",
    dependencies: ["Loop", "LinkList", "Categories", "Habits", "Ledger", "Interchange"],
    testDependencies: ["TestSupport"])

/// Every module of ``features`` (their tests aside): the REPL's commands name every feature's
/// actions and every client's models, so `LoopCLI` depends on them all, and a new noun's
/// modules join it here.
let featureModules: [Target.Dependency] =
  features.filter { $0.type != .test }.map { .target(name: $0.name) }

let package = Package(
  name: "Loop",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Loop", targets: ["Loop"]),
    .library(name: "LoopTesting", targets: ["LoopTesting"]),
    .library(name: "Persistence", targets: ["Persistence"]),
    .executable(name: "loop", targets: ["loop"]),
    .executable(name: "loop-bench", targets: ["LoopBenchmarks"]),
  ],
  targets: [
    .target(name: "Loop"),
    .testTarget(name: "LoopTests", dependencies: ["Loop", "TestSupport"]),
    .target(name: "LoopTesting", dependencies: ["Loop"]),
    .testTarget(name: "LoopTestingTests", dependencies: ["LoopTesting", "TestSupport"]),
    .systemLibrary(
      name: "CSQLite",
      path: "Sources/CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // NB: no pkgConfig: it would link libpq into every product (its `Libs`), and `loop` loads
    // it only when a PostgreSQL store opens. The header is found as Debian installs it.
    .systemLibrary(
      name: "CLibPQ",
      path: "Sources/CLibPQ",
      providers: [.apt(["libpq-dev"])]
    ),
    // NB: Persistence uses Loop only to name its generic ids in diffs (`Habit.ID`); it keeps
    // `PrivateFile`, the one way Loop writes a file for its user, which the REPL uses too.
    .target(name: "Persistence", dependencies: ["CSQLite", "CLibPQ", "Loop"]),
    // NB: the tests also write files through CSQLite, as an earlier Loop (or another program)
    // would have written them, to check what opening them does.
    .testTarget(
      name: "PersistenceTests", dependencies: ["Persistence", "Loop", "CSQLite", "TestSupport"]),
    // NB: what the tests share (harnesses on every storage, fixtures, day helpers, a seeded
    // generator), in one target (not a product) that only tests depend on. The client harness
    // seeds SQLite files through CSQLite, to install triggers that fail a write no valid model
    // can cause; through CLibPQ it makes a schema on the test server for each PostgreSQL test.
    .target(
      name: "TestSupport",
      dependencies: [
        "Loop", "LoopTesting", "Persistence", "CSQLite", "CLibPQ", "LinkClient", "CategoryClient",
        "HabitClient", "HabitClientLive", "LinkClientLive", "CategoryClientLive",
      ],
      path: "Tests/Support",
      linkerSettings: [.linkedLibrary("pq")]),
    // NB: the code the DocC articles show, run; it checks the articles show it verbatim.
    .testTarget(name: "DocsTests", dependencies: ["LoopTesting", "Persistence"]),
    .target(name: "LoopCLI", dependencies: ["Loop", "Persistence"] + featureModules),
    // NB: the tests run the built `loop` binary too (depending on it makes `swift build
    // --build-tests` build it), and seed and reopen its database files through the clients on
    // a `ModelContainer` of their own. `Recordings` holds sessions recorded with `loop --record`,
    // each replayed as a test; they are read from the source folder, not bundled.
    .testTarget(
      name: "LoopCLITests",
      dependencies: [
        "LoopCLI", "LoopTesting", "loop", "Persistence", "LinkClient", "LinkClientLive",
        "CategoryClient", "CategoryClientLive", "HabitClient", "HabitClientLive", "LedgerClient",
        "LedgerClientLive",
        "Interchange", "TestSupport",
      ],
      exclude: ["Recordings"]
    ),
    .executableTarget(name: "loop", dependencies: ["LoopCLI"]),
    .executableTarget(
      name: "LoopBenchmarks",
      dependencies: [
        "Loop", "LoopTesting", "Persistence", "CSQLite", "CLibPQ", "LoopCLI", "LinkClient",
        "LinkClientLive", "HabitClient", "LedgerClient", "LedgerClientLive",
        // NB: the exploration row explores the Ledger feature.
        "Ledger", "DraftEditor",
      ],
      path: "Sources/LoopBenchmarks",
      // NB: CLibPQ links nothing (Persistence loads libpq when a PostgreSQL store opens, so
      // that `loop` starts without it); the PostgreSQL benchmarks call libpq directly.
      linkerSettings: [.linkedLibrary("pq")]
    ),
  ] + features,
  swiftLanguageModes: [.v6]
)

// NB: a module sees the members (extensions' methods and initializers) only of the modules it
// imports itself (SE-0444), so using another module's symbols without importing it fails to
// build, and every edge shows as an import that scripts/check-architecture compares.
for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("MemberImportVisibility")
    ]
}
