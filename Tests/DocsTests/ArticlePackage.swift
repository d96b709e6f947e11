import Foundation

/// The package an article builds, read as a newcomer reads it: its `sh` blocks, run in order in
/// an empty folder beside a checkout of Loop, make the package; each block marked
/// `<!-- file: PATH -->` goes in that file, in order (the first replaces what the commands put
/// there, the next ones are added below it).
///
/// Nothing is added that the article does not show: no import, no declaration. So a block that
/// relies on something the article never shows fails to build.
struct ArticlePackage {
  /// The article, relative to the repository.
  var article: String
  /// The commands of its `sh` blocks, in order.
  var commands: [String]
  /// Each file's path in the package and its text, in the order the article first names them.
  var files: [(path: String, text: String)]

  /// The package `article` builds, from its blocks.
  ///
  /// - Throws: `ArticlePackageError` when the article has no commands or no manifest.
  init(article: String, blocks: [CodeBlock]) throws {
    self.article = article
    let blocks = blocks.filter { $0.file == article }
    commands = blocks.filter { $0.language == "sh" }.map { $0.lines.joined(separator: "\n") }
    files = []
    for block in blocks {
      guard let path = block.packageFile else { continue }
      let text = block.lines.joined(separator: "\n") + "\n"
      if let index = files.firstIndex(where: { $0.path == path }) {
        files[index].text += "\n" + text
      } else {
        files.append((path, text))
      }
    }
    guard !commands.isEmpty else {
      throw ArticlePackageError("\(article): no 'sh' block makes the package.")
    }
    guard files.contains(where: { $0.path == "Package.swift" }) else {
      throw ArticlePackageError("\(article): no block is marked '<!-- file: Package.swift -->'.")
    }
  }

  /// The folder the manifest's path dependency names (`Loop` for `.package(path: "../Loop")`):
  /// where the article expects the checkout of Loop, beside the new package.
  ///
  /// - Throws: `ArticlePackageError` when the manifest depends on Loop otherwise.
  func checkoutFolder() throws -> String {
    let manifest = files.first { $0.path == "Package.swift" }?.text ?? ""
    let marker = ".package(path: \"../"
    guard let start = manifest.range(of: marker)?.upperBound,
      let end = manifest[start...].firstIndex(of: "\"")
    else {
      throw ArticlePackageError(
        "\(article): the manifest has no '.package(path: \"../…\")' to a checkout of Loop.")
    }
    return String(manifest[start..<end])
  }

  /// The same package with every line that is exactly `line` left out of its files.
  func removing(line: String) -> ArticlePackage {
    var copy = self
    copy.files = files.map { file in
      let lines = file.text.components(separatedBy: "\n").filter { $0 != line }
      return (file.path, lines.joined(separator: "\n"))
    }
    return copy
  }

  /// Makes the package as the article says, in a folder `folder` emptied first: a link named
  /// as the manifest expects to the checkout `checkout`, the commands run in `folder` by
  /// `/bin/sh`, then the files written where the commands left the shell.
  ///
  /// - Returns: The package's folder.
  /// - Throws: `ArticlePackageError` when a command fails, with what it printed.
  func make(in folder: URL, checkout: URL) throws -> URL {
    let link = folder.appendingPathComponent(try checkoutFolder())
    // NB: the link is removed first, so that emptying the folder cannot reach the checkout.
    unlink(link.path)
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: checkout)

    let script = (["set -e"] + commands + ["pwd"]).joined(separator: "\n")
    let run = try Command.run("/bin/sh", ["-c", script], in: folder)
    guard run.status == 0, let last = run.output.split(separator: "\n").last else {
      throw ArticlePackageError("\(article): its commands failed:\n\(run.output)")
    }
    let package = URL(fileURLWithPath: String(last))
    for file in files {
      let url = package.appendingPathComponent(file.path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(file.text.utf8).write(to: url)
    }
    return package
  }
}

/// Why an article's package could not be made.
struct ArticlePackageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A program run to its end.
struct Command {
  /// Its exit status.
  var status: Int32
  /// What it wrote to its standard output and error, interleaved as written.
  var output: String

  /// Runs `executable` with `arguments` in `folder`, its standard input empty.
  static func run(_ executable: String, _ arguments: [String], in folder: URL) throws -> Command {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let pipe = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    // NB: read to the end before waiting, so a full pipe never blocks the child.
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Command(
      status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
  }
}
