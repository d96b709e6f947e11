import Foundation

/// A part of a test file marked as shown in an article.
///
///     // snippet: name
///     …code…
///     // snippet: end
///
/// Its lines are compared without the indentation they share, so a snippet can sit inside a
/// suite. A snippet whose first and last lines are `"""` is the text of that string literal:
/// the text an article shows in a `text` block (a failure message, say).
struct Snippet: Equatable {
  var name: String
  var file: String
  var line: Int
  var lines: [String]

  /// The snippets marked in `source`.
  ///
  /// - Throws: `SnippetError` for a marker out of place.
  static func parse(_ source: String, file: String) throws -> [Snippet] {
    var snippets: [Snippet] = []
    var open: Snippet?
    for (index, line) in source.components(separatedBy: "\n").enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("// snippet:") else {
        open?.lines.append(line)
        continue
      }
      let name = trimmed.dropFirst("// snippet:".count).trimmingCharacters(in: .whitespaces)
      switch (open, name) {
      case (nil, "end"):
        throw SnippetError("\(file):\(index + 1): '// snippet: end' closes no snippet.")
      case (nil, _):
        open = Snippet(name: name, file: file, line: index + 1, lines: [])
      case (var snippet?, "end"):
        snippet.lines = dedented(snippet.lines)
        if snippet.lines.first == "\"\"\"", snippet.lines.last == "\"\"\"", snippet.lines.count > 1
        {
          snippet.lines = dedented(Array(snippet.lines.dropFirst().dropLast()))
        }
        snippets.append(snippet)
        open = nil
      case (let snippet?, _):
        throw SnippetError(
          "\(file):\(index + 1): snippet '\(name)' starts inside snippet '\(snippet.name)'.")
      }
    }
    if let open {
      throw SnippetError("\(file):\(open.line): snippet '\(open.name)' has no '// snippet: end'.")
    }
    return snippets
  }
}

/// A fenced code block of an article.
struct CodeBlock: Equatable {
  var file: String
  var line: Int
  var language: String
  var lines: [String]
  /// Why the block is not compiled, from an `<!-- not compiled: … -->` line right before it.
  var notCompiled: String?
  /// The file of the article's package the block goes in, from a `<!-- file: PATH -->` line
  /// right before it (see `ArticlePackage`).
  var packageFile: String?

  /// The fenced blocks of a Markdown text.
  static func parse(_ markdown: String, file: String) -> [CodeBlock] {
    var blocks: [CodeBlock] = []
    var open: (block: CodeBlock, indent: Int)?
    var notCompiled: String?
    var packageFile: String?
    for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if var current = open {
        if trimmed == "```" {
          current.block.lines = dedented(current.block.lines)
          blocks.append(current.block)
          open = nil
        } else {
          current.block.lines.append(
            String(line.dropFirst(min(current.indent, leadingSpaces(line)))))
          open = current
        }
      } else if trimmed.hasPrefix("```") {
        let block = CodeBlock(
          file: file, line: index + 1, language: String(trimmed.dropFirst(3)), lines: [],
          notCompiled: notCompiled, packageFile: packageFile)
        open = (block, leadingSpaces(line))
        notCompiled = nil
        packageFile = nil
      } else if let note = note(trimmed, "not compiled:") {
        notCompiled = note
      } else if let note = note(trimmed, "file:") {
        packageFile = note
      } else if !trimmed.isEmpty {
        notCompiled = nil
        packageFile = nil
      }
    }
    return blocks
  }

  /// The text of an `<!-- name … -->` line, trimmed, or `nil` for any other line.
  private static func note(_ line: String, _ name: String) -> String? {
    guard line.hasPrefix("<!-- \(name)"), line.hasSuffix("-->") else { return nil }
    return String(line.dropFirst("<!-- \(name)".count).dropLast(3))
      .trimmingCharacters(in: .whitespaces)
  }

  /// The lines a snippet of this block holds: for a block of a package's file, those after the
  /// imports that open it (a test target imports what it needs its own way).
  var snippetLines: [String] {
    guard packageFile != nil else { return lines }
    let imports = lines.prefix {
      $0.isEmpty || $0.hasPrefix("import ") || $0.hasPrefix("@testable import ")
    }
    return Array(lines.dropFirst(imports.count))
  }

  /// The snippet this block shows, if any.
  func snippet(in snippets: [Snippet]) -> Snippet? {
    snippets.first { $0.lines == snippetLines }
  }

  /// Why this block matches no snippet: the snippet that comes closest, and where they part.
  func mismatch(in snippets: [Snippet]) -> String {
    let head = "\(file):\(line): this '\(language)' block is no snippet of Tests/DocsTests."
    let lines = snippetLines
    func common(_ snippet: Snippet) -> Int {
      zip(lines, snippet.lines).prefix { $0 == $1 }.count
    }
    guard let closest = snippets.max(by: { common($0) < common($1) }), common(closest) > 0 else {
      return head + " No snippet starts with its first line:\n    \(lines.first ?? "")"
    }
    let index = common(closest)
    let ours = index < lines.count ? "    \(lines[index])" : "    (the block ends)"
    let theirs = index < closest.lines.count ? "    \(closest.lines[index])" : "    (it ends)"
    return """
      \(head) The closest is '\(closest.name)' (\(closest.file):\(closest.line)); \
      they part at the block's line \(index + 1):
      \(ours)
      where the snippet has:
      \(theirs)
      """
  }
}

/// A mistake in the snippet markers.
struct SnippetError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// `lines` without the indentation their non-blank lines share, and blank lines emptied.
func dedented(_ lines: [String]) -> [String] {
  let indent =
    lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    .map(leadingSpaces).min() ?? 0
  return lines.map { line in
    line.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String(line.dropFirst(indent))
  }
}

private func leadingSpaces(_ line: String) -> Int {
  line.prefix { $0 == " " }.count
}
