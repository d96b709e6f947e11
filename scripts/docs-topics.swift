// Checks that every public symbol is listed under a topic written in a catalog.
//
//   swift scripts/docs-topics.swift SYMBOL_GRAPHS_DIR ARCHIVE...
//
// Reads the symbol graphs `scripts/docs` extracted (every public symbol of a module) and the
// pages DocC built from them, and fails when a symbol appears in no hand-written `## Topics`
// section: only under a group DocC made up itself ("Instance Methods", "Structures"). Exempt are
// implementations of a protocol's requirements, which DocC files under the protocol's name (a
// type's "Equatable Implementations", a requirement's "Default Implementations").
import Foundation

struct SymbolGraph: Decodable {
  struct Symbol: Decodable {
    struct Identifier: Decodable { var precise: String }
    struct Kind: Decodable { var displayName: String }
    var identifier: Identifier
    var pathComponents: [String]
    var kind: Kind
  }
  struct Module: Decodable { var name: String }
  var module: Module
  var symbols: [Symbol]
}

struct RenderNode: Decodable {
  struct Identifier: Decodable { var url: String }
  struct Metadata: Decodable {
    var externalID: String?
    var role: String?
  }
  struct Section: Decodable {
    var identifiers: [String]
    var generated: Bool?
  }
  var kind: String
  var identifier: Identifier
  var metadata: Metadata
  var topicSections: [Section]?
  var defaultImplementationsSections: [Section]?
}

func jsonFiles(under directory: String) -> [String] {
  let enumerator = FileManager.default.enumerator(atPath: directory)
  var files: [String] = []
  while let path = enumerator?.nextObject() as? String {
    if path.hasSuffix(".json") { files.append(directory + "/" + path) }
  }
  return files.sorted()
}

func decode<T: Decodable>(_ type: T.Type, _ path: String) -> T {
  do {
    return try JSONDecoder().decode(type, from: Data(contentsOf: URL(fileURLWithPath: path)))
  } catch {
    FileHandle.standardError.write(Data("docs-topics: cannot read '\(path)': \(error)\n".utf8))
    exit(2)
  }
}

/// The symbol link to write for `symbol`, whose page is `page`: its path, with the suffix DocC
/// gives a name that several symbols share, and the module of an extended type.
///
/// NB: the page's URL has the suffixes, but spells characters such as `<` as `_`; the symbol
/// graph has the names.
func link(to page: String, _ symbol: SymbolGraph.Symbol, in module: String) -> String {
  let url = (page.components(separatedBy: "/documentation/\(module)/").last ?? "")
    .split(separator: "/").map(String.init)
  let names = symbol.pathComponents
  guard url.count >= names.count else { return names.joined(separator: "/") }
  let prefix = url.dropLast(names.count)
  let components = zip(names, url.suffix(names.count)).map { name, component in
    let suffix = component.dropFirst(name.count)
    return suffix.hasPrefix("-") ? name + suffix : name
  }
  return (prefix + components).joined(separator: "/")
}

let arguments = CommandLine.arguments.dropFirst()
guard let graphs = arguments.first, arguments.count > 1 else {
  FileHandle.standardError.write(
    Data("usage: swift scripts/docs-topics.swift SYMBOL_GRAPHS_DIR ARCHIVE...\n".utf8))
  exit(2)
}

var pageOfSymbol: [String: String] = [:]  // precise identifier → page URL
var listed: Set<String> = []  // pages a hand-written topic lists
var implementations: Set<String> = []  // pages DocC files under a protocol's name
for archive in arguments.dropFirst() {
  for path in jsonFiles(under: archive + "/data/documentation") {
    let node = decode(RenderNode.self, path)
    if node.kind == "symbol", let id = node.metadata.externalID {
      pageOfSymbol[id] = node.identifier.url
    }
    for section in node.topicSections ?? [] {
      if node.metadata.role == "collectionGroup" {
        implementations.formUnion(section.identifiers)
      } else if section.generated != true {
        listed.formUnion(section.identifiers)
      }
    }
    for section in node.defaultImplementationsSections ?? [] {
      implementations.formUnion(section.identifiers)
    }
  }
}

var missing: [String] = []
var count = 0
for path in jsonFiles(under: graphs) {
  let graph = decode(SymbolGraph.self, path)
  for symbol in graph.symbols {
    count += 1
    let name = symbol.pathComponents.joined(separator: "/")
    guard let page = pageOfSymbol[symbol.identifier.precise] else {
      missing.append("\(graph.module.name): \(name) (\(symbol.kind.displayName)) has no page")
      continue
    }
    if !listed.contains(page) && !implementations.contains(page) {
      missing.append(
        "\(graph.module.name): ``\(link(to: page, symbol, in: graph.module.name))`` "
          + "(\(symbol.kind.displayName))")
    }
  }
}

if missing.isEmpty {
  print("All \(count) public symbols are listed under a topic.")
} else {
  print(
    """
    \(missing.count) of \(count) public symbols are listed under no topic:
    \(missing.sorted().map { "  " + $0 }.joined(separator: "\n"))
    To fix, list each under a '## Topics' heading of its catalog: a top-level symbol on the \
    landing page (Sources/<Module>/<Module>.docc/<Module>.md), a member there or on its type's \
    page (Sources/<Module>/<Module>.docc/Extensions/<Type>.md, which starts '# ``<Module>/<Type>``').
    """)
  exit(1)
}
