// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Loop",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Loop", targets: ["Loop"]),
    .library(name: "LoopTesting", targets: ["LoopTesting"]),
  ],
  targets: [
    .target(name: "Loop"),
    .testTarget(name: "LoopTests", dependencies: ["Loop"]),
    .target(name: "LoopTesting", dependencies: ["Loop"]),
    .testTarget(name: "LoopTestingTests", dependencies: ["LoopTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
