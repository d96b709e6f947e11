import Foundation
import Testing

/// Every article that builds a package (Getting started) is followed as printed: its commands
/// run in an empty folder beside this checkout, its blocks go in the files it names, and the
/// package builds and its tests pass (see `ArticlePackage`).
///
/// The packages build with `swift` from `PATH`, each into a folder of its own under `.build`
/// that the next run reuses, so only what the article's package needs from Loop is compiled,
/// and only once.
@Suite(.serialized) struct ArticlePackageTests {
  /// The articles with blocks marked `<!-- file: PATH -->`.
  static func articles() throws -> [String] {
    var articles: [String] = []
    for block in try ArticleSnippetTests.blocks() where block.packageFile != nil {
      if !articles.contains(block.file) { articles.append(block.file) }
    }
    return articles
  }

  /// Where the package of `article` is made, and where it is built.
  static func folders(of article: String) -> (package: URL, build: URL) {
    let name = URL(fileURLWithPath: article).deletingPathExtension().lastPathComponent
    let base = ArticleSnippetTests.root.appendingPathComponent(".build/article-packages")
    return (
      base.appendingPathComponent(name), base.appendingPathComponent("\(name).build")
    )
  }

  /// `swift` with `arguments` in `folder`, building into `build`.
  static func swift(_ arguments: [String], in folder: URL, build: URL) throws -> Command {
    try Command.run(
      "/usr/bin/env", ["swift"] + arguments + ["--scratch-path", build.path], in: folder)
  }

  @Test func gettingStartedBuildsAPackage() throws {
    #expect(try Self.articles().contains("Sources/Loop/Loop.docc/GettingStarted.md"))
  }

  @Test(arguments: try articles())
  func theArticlesPackageBuildsAsPrintedAndItsTestsPass(article: String) throws {
    let package = try ArticlePackage(article: article, blocks: ArticleSnippetTests.blocks())
    let (folder, build) = Self.folders(of: article)
    let made = try package.make(in: folder, checkout: ArticleSnippetTests.root)
    let test = try Self.swift(["test"], in: made, build: build)
    #expect(test.status == 0, "swift test in \(made.path):\n\(test.output)")
    #expect(
      test.output.contains("✔ Test run with "),
      "no test of the article ran in \(made.path):\n\(test.output)")
  }

  @Test func gettingStartedWithoutItsImportOfLoopFailsToBuild() throws {
    let article = "Sources/Loop/Loop.docc/GettingStarted.md"
    let package = try ArticlePackage(article: article, blocks: ArticleSnippetTests.blocks())
    let broken = package.removing(line: "import Loop")
    #expect(broken.files.map(\.text) != package.files.map(\.text))
    let (folder, build) = Self.folders(of: article)
    let made = try broken.make(in: folder, checkout: ArticleSnippetTests.root)
    let result = try Self.swift(["build", "--build-tests"], in: made, build: build)
    #expect(result.status != 0)
    #expect(
      result.output.contains("error: cannot find type 'DependencyKey' in scope"),
      "\(result.output)")
  }
}
