// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Loop",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Loop", targets: ["Loop"]),
    .library(name: "LoopTesting", targets: ["LoopTesting"]),
    .library(name: "Persistence", targets: ["Persistence"]),
    .executable(name: "loop-bench", targets: ["LoopBenchmarks"]),
  ],
  targets: [
    .target(name: "Loop"),
    .testTarget(name: "LoopTests", dependencies: ["Loop"]),
    .target(name: "LoopTesting", dependencies: ["Loop"]),
    .testTarget(name: "LoopTestingTests", dependencies: ["LoopTesting"]),
    .systemLibrary(
      name: "CSQLite",
      path: "Sources/CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .target(name: "Persistence", dependencies: ["CSQLite"]),
    .testTarget(name: "PersistenceTests", dependencies: ["Persistence"]),
    .executableTarget(
      name: "LoopBenchmarks",
      dependencies: ["Persistence", "CSQLite"],
      path: "Sources/LoopBenchmarks"
    ),
  ],
  swiftLanguageModes: [.v6]
)
