import Foundation
import Testing

/// The articles' code is this target's code.
///
/// Every `swift` and `text` block of an article in `Sources/*/*.docc` must be, line for line, a
/// snippet marked in a file of `Tests/DocsTests` (see `Snippet`), and every snippet must be shown
/// by an article. So a snippet edited in one place and not the other fails here, and the code an
/// article shows compiles and runs. A block marked `<!-- file: PATH -->` is also a part of the
/// package the article builds, which `ArticlePackageTests` makes and tests as printed: its
/// snippet leaves out the imports that open it, and the manifest (`Package.swift`) has none.
@Suite struct ArticleSnippetTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The languages of blocks that are not compiled: commands.
  static let commandLanguages: Set = ["sh"]

  /// Every fenced block of every page of the three catalogs.
  static func blocks() throws -> [CodeBlock] {
    try files(under: "Sources", in: { $0.contains(".docc/") && $0.hasSuffix(".md") })
      .flatMap { path in
        CodeBlock.parse(
          try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8), file: path)
      }
  }

  /// Every snippet marked in this target.
  static func snippets() throws -> [Snippet] {
    try files(under: "Tests/DocsTests", in: { $0.hasSuffix(".swift") }).flatMap { path in
      try Snippet.parse(
        String(contentsOf: root.appendingPathComponent(path), encoding: .utf8), file: path)
    }
  }

  /// The paths, relative to the repository, of the files under `folder` that `isIncluded`.
  static func files(under folder: String, in isIncluded: (String) -> Bool) throws -> [String] {
    let base = root.appendingPathComponent(folder)
    let paths = try FileManager.default.subpathsOfDirectory(atPath: base.path)
    return paths.filter(isIncluded).sorted().map { "\(folder)/\($0)" }
  }

  @Test func everyArticleOfTheIssueIsInItsCatalog() throws {
    let pages = try Self.files(under: "Sources", in: { $0.hasSuffix(".md") })
    for article in [
      "Sources/Loop/Loop.docc/GettingStarted.md",
      "Sources/Loop/Loop.docc/EffectsAndOrdering.md",
      "Sources/Loop/Loop.docc/Dependencies.md",
      "Sources/Loop/Loop.docc/CompositionAndNavigation.md",
      "Sources/Loop/Loop.docc/Performance.md",
      "Sources/Loop/Loop.docc/ComingFromTCA.md",
      "Sources/LoopTesting/LoopTesting.docc/Testing.md",
      "Sources/LoopTesting/LoopTesting.docc/ExploringAReducer.md",
      "Sources/Persistence/Persistence.docc/StoringModels.md",
    ] {
      #expect(pages.contains(article), "\(article) is missing")
    }
  }

  @Test func everySwiftAndTextBlockIsASnippetOfTheseTests() throws {
    let snippets = try Self.snippets()
    let blocks = try Self.blocks()
    #expect(blocks.count > 20, "the articles' blocks were not found under \(Self.root.path)")
    for block in blocks where block.notCompiled == nil && block.packageFile != "Package.swift" {
      switch block.language {
      case "swift", "text":
        if block.snippet(in: snippets) == nil {
          Issue.record(Comment(rawValue: block.mismatch(in: snippets)))
        }
      case let language where Self.commandLanguages.contains(language):
        break
      default:
        Issue.record(
          """
          \(block.file):\(block.line): a block in '\(block.language)'. A block is 'swift' or \
          'text', shown from a snippet of Tests/DocsTests, or 'sh' for commands; mark anything \
          else '<!-- not compiled: why -->' on the line before it.
          """)
      }
    }
  }

  @Test func everySnippetIsShownByAnArticle() throws {
    let blocks = try Self.blocks()
    for snippet in try Self.snippets()
    where !blocks.contains(where: { $0.snippetLines == snippet.lines }) {
      Issue.record(
        """
        \(snippet.file):\(snippet.line): snippet '\(snippet.name)' is shown by no article. \
        Remove its markers, or show it.
        """)
    }
  }

  @Test func noBlockIsLeftUncompiled() throws {
    let exempt = try Self.blocks().filter { $0.notCompiled != nil }
    #expect(exempt.map { "\($0.file):\($0.line)" } == [])
  }
}

/// The check itself: what it matches and what it says when a block and its snippet part.
@Suite struct SnippetParsingTests {
  // NB: the markers are spelled through these, so this file's own text holds no marker.
  let start = "// " + "snippet:"
  let end = "// " + "snippet: end"

  @Test func aSnippetIsComparedWithoutItsIndentation() throws {
    let snippets = try Snippet.parse(
      """
      struct Suite {
        \(start) sum
        func sum() -> Int {
          1 + 2
        }
        \(end)
      }
      """, file: "T.swift")
    let blocks = CodeBlock.parse(
      """
      # A

      ```swift
      func sum() -> Int {
        1 + 2
      }
      ```
      """, file: "A.md")
    #expect(blocks.first?.snippet(in: snippets)?.name == "sum")
  }

  @Test func aStringLiteralSnippetIsItsText() throws {
    let snippets = try Snippet.parse(
      """
          #expect(message == [
            \(start) message
            \"\"\"
            A state change does not match expectation.
            \"\"\"
            \(end)
          ])
      """, file: "T.swift")
    #expect(snippets.map(\.lines) == [["A state change does not match expectation."]])
  }

  @Test func aBlockThatDiffersFromItsSnippetNamesWhereTheyPart() throws {
    let snippets = try Snippet.parse(
      """
      \(start) sum
      let a = 1
      let b = 2
      \(end)
      """, file: "T.swift")
    let block = try #require(
      CodeBlock.parse("```swift\nlet a = 1\nlet b = 3\n```", file: "A.md").first)
    #expect(block.snippet(in: snippets) == nil)
    #expect(
      block.mismatch(in: snippets) == """
        A.md:1: this 'swift' block is no snippet of Tests/DocsTests. The closest is 'sum' \
        (T.swift:1); they part at the block's line 2:
            let b = 3
        where the snippet has:
            let b = 2
        """)
  }

  @Test func markersOutOfPlaceAreErrors() {
    #expect(throws: SnippetError.self) { try Snippet.parse("\(start) a\n", file: "T.swift") }
    #expect(throws: SnippetError.self) { try Snippet.parse("\(end)\n", file: "T.swift") }
    #expect(throws: SnippetError.self) {
      try Snippet.parse("\(start) a\n\(start) b\n\(end)\n", file: "T.swift")
    }
  }

  @Test func aNotCompiledNoteExemptsOnlyTheBlockRightAfterIt() {
    let blocks = CodeBlock.parse(
      """
      <!-- not compiled: a package manifest -->
      ```swift
      let package = 1
      ```

      ```swift
      let other = 2
      ```
      """, file: "A.md")
    #expect(blocks.map(\.notCompiled) == ["a package manifest", nil])
  }

  @Test func aFileNotePutsOnlyTheBlockRightAfterItInThePackage() {
    let blocks = CodeBlock.parse(
      """
      <!-- file: Package.swift -->
      ```swift
      let package = 1
      ```

      Then:

      ```swift
      let other = 2
      ```
      """, file: "A.md")
    #expect(blocks.map(\.packageFile) == ["Package.swift", nil])
    #expect(blocks.map(\.notCompiled) == [nil, nil])
  }

  @Test func aSnippetOfAPackagesFileLeavesOutTheImportsThatOpenIt() throws {
    let blocks = CodeBlock.parse(
      """
      <!-- file: Tests/ATests/ATests.swift -->
      ```swift
      import Testing

      @testable import A

      @Test func a() {}
      ```

      ```swift
      import Testing
      ```
      """, file: "A.md")
    #expect(blocks.map(\.snippetLines) == [["@Test func a() {}"], ["import Testing"]])
  }
}
