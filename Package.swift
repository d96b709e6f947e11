// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Loop",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Loop", targets: ["Loop"]),
  ],
  targets: [
    .target(name: "Loop"),
    .testTarget(name: "LoopTests", dependencies: ["Loop"]),
  ],
  swiftLanguageModes: [.v6]
)
