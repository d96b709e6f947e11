import Foundation
import LinkClient

/// The Netscape bookmark file: what Chrome, Firefox, Safari and Edge export and import.
///
/// ```html
/// <!DOCTYPE NETSCAPE-Bookmark-file-1>
/// <DL><p>
///     <DT><H3 ADD_DATE="1700000000">Dev</H3>
///     <DL><p>
///         <DT><A HREF="https://swift.org/" ADD_DATE="1700000000">Swift</A>
///         <DD>A note
///     </DL><p>
/// </DL><p>
/// ```
///
/// Reading: every `<A HREF>` is a link, in the category named by its folders (`<H3>`, each
/// opening a `<DL>`), nested folders flattened as `Parent / Child`; `ADD_DATE` is its creation
/// date (seconds since 1970, or milliseconds or microseconds as some tools write), and a
/// `<DD>` right after it its memo. Entities (`&amp;`, `&#39;`, `&#x27;`, …) are decoded and
/// whitespace in titles collapsed. Each link keeps the line its `<A` is on.
///
/// Writing is the reverse: categories become folders (split again at ` / `), memos `<DD>`s.
public enum BookmarkFile {
  /// Reads the links of a bookmark file.
  ///
  /// - Parameters:
  ///   - text: The file's text.
  ///   - file: The file's name, for errors.
  /// - Returns: The links in file order, unchecked (the links client checks them).
  /// - Throws: ``InterchangeError/notFormat(file:format:reason:)`` when the text is neither
  ///   marked as a bookmark file nor holds a `<DL>` list, and
  ///   ``InterchangeError/truncated(file:line:reason:)`` when it ends inside a tag, a title or
  ///   a folder.
  /// - Complexity: O(*n*) in the length of the text.
  public static func parse(_ text: String, file: String) throws(InterchangeError)
    -> [ImportedLink]
  {
    var parser = BookmarkParser(bytes: Array(text.utf8), file: file)
    return try parser.parse()
  }

  /// Writes links as a bookmark file browsers can import.
  ///
  /// Links without a category come first, then one folder per category, sorted by name
  /// ignoring case (a category named `Dev / Swift` is the folder `Swift` inside `Dev`); inside
  /// a folder, links in the archive's order, then its folders.
  ///
  /// - Parameter archive: The links and their categories (comments are not written).
  /// - Returns: The file's text.
  public static func write(_ archive: LinkArchive) -> String {
    let root = Folder(name: "")
    var categories: [Category.ID: Folder] = [:]
    for category in archive.categories {
      var folder = root
      for component in category.name.components(separatedBy: " / ") {
        folder = folder.child(named: component)
      }
      folder.createdAt = category.createdAt
      categories[category.id] = folder
    }
    for link in archive.links {
      (link.categoryID.flatMap { categories[$0] } ?? root).links.append(link)
    }
    var text = """
      <!DOCTYPE NETSCAPE-Bookmark-file-1>
      <!-- This is an automatically generated file.
           It will be read and overwritten.
           DO NOT EDIT! -->
      <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
      <TITLE>Bookmarks</TITLE>
      <H1>Bookmarks</H1>

      """
    root.write(into: &text, depth: 0)
    return text
  }
}

// MARK: - Writing

/// A folder of the written file: its links and its subfolders.
private final class Folder {
  let name: String
  var createdAt: Date?
  var links: [Link] = []
  var children: [Folder] = []

  init(name: String) {
    self.name = name
  }

  func child(named name: String) -> Folder {
    if let child = children.first(where: { $0.name == name }) { return child }
    let child = Folder(name: name)
    children.append(child)
    return child
  }

  /// Writes `<DL>` with the links and the subfolders, at `depth` levels of indentation.
  func write(into text: inout String, depth: Int) {
    let indent = String(repeating: "    ", count: depth)
    text += "\(indent)<DL><p>\n"
    for link in links {
      let added = Int64(link.createdAt.timeIntervalSince1970.rounded(.down))
      text +=
        "\(indent)    <DT><A HREF=\"\(escape(link.url.absoluteString))\" ADD_DATE=\"\(added)\">"
        + "\(escape(link.title))</A>\n"
      if let memo = link.memo { text += "\(indent)    <DD>\(escape(memo))\n" }
    }
    for child in children.sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
      let added = child.createdAt.map {
        " ADD_DATE=\"\(Int64($0.timeIntervalSince1970.rounded(.down)))\""
      }
      text += "\(indent)    <DT><H3\(added ?? "")>\(escape(child.name))</H3>\n"
      child.write(into: &text, depth: depth + 1)
    }
    text += "\(indent)</DL><p>\n"
  }
}

/// The text with `&`, `<`, `>`, `"` and `'` written as entities.
private func escape(_ text: String) -> String {
  var escaped = ""
  escaped.reserveCapacity(text.utf8.count)
  for character in text {
    switch character {
    case "&": escaped += "&amp;"
    case "<": escaped += "&lt;"
    case ">": escaped += "&gt;"
    case "\"": escaped += "&quot;"
    case "'": escaped += "&#39;"
    default: escaped.append(character)
    }
  }
  return escaped
}

// MARK: - Reading

/// The byte-level reader behind ``BookmarkFile/parse(_:file:)``.
///
/// NB: it works on UTF-8 bytes and makes a `String` only of what it keeps (titles, addresses,
/// memos, folder names): a browser's export of 100,000 bookmarks is 20 MB of tags and icons.
private struct BookmarkParser {
  /// What the last element read was, to know what a `<DD>` describes.
  private enum Element {
    case other
    case link
  }

  /// The attributes of a tag that the reader uses.
  private struct Attributes {
    var href: ArraySlice<UInt8>?
    var addDate: ArraySlice<UInt8>?
    var marksBookmarkFile = false
  }

  let bytes: [UInt8]
  let file: String
  private var index = 0
  private var line = 1
  /// The open `<DL>`s: the folder each belongs to (`nil` for a list of no folder) and its line.
  private var lists: [(folder: String?, line: Int)] = []
  /// The last `<H3>`'s name, waiting for its `<DL>`.
  private var pendingFolder: String?
  /// The category of the innermost open list: its folders' names joined, or `nil`.
  private var category: String?
  private var last = Element.other
  private var isMarked = false
  private var hasList = false
  private var links: [ImportedLink] = []

  init(bytes: [UInt8], file: String) {
    self.bytes = bytes
    self.file = file
  }

  mutating func parse() throws(InterchangeError) -> [ImportedLink] {
    while index < bytes.count {
      switch bytes[index] {
      case ascii("<"):
        try tag()
      case ascii("\n"):
        line += 1
        index += 1
      default:
        index += 1
      }
    }
    guard isMarked || hasList else {
      throw .notFormat(
        file: file, format: .html,
        reason: "it has neither <!DOCTYPE NETSCAPE-Bookmark-file-1> nor a <DL> list of bookmarks")
    }
    if let open = lists.last {
      throw .truncated(file: file, line: open.line, reason: "a folder's <DL> list is never closed")
    }
    return links
  }

  /// Reads the tag at `index` (a `<`), and the content of the elements that have one.
  private mutating func tag() throws(InterchangeError) {
    let start = line
    if matches("<!--", at: index) {
      guard let end = find("-->", from: index + 4) else {
        throw .truncated(file: file, line: start, reason: "a comment is never closed")
      }
      advance(to: end + 3)
      return
    }
    index += 1
    let isClosing = index < bytes.count && bytes[index] == ascii("/")
    if isClosing { index += 1 }
    let nameStart = index
    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != ascii(">"),
      bytes[index] != ascii("/")
    {
      index += 1
    }
    let name = bytes[nameStart..<index]
    let attributes = try readAttributes(openedOn: start)

    if isClosing {
      if equal(name, "DL") {
        if lists.popLast() != nil { category = currentCategory() }
        last = .other
      }
    } else if equal(name, "A") {
      let title = clean(try content(closedBy: "A", openedOn: start))
      links.append(
        ImportedLink(
          line: start, title: title,
          url: attributes.href.map { text(decodingEntities($0)) } ?? "", category: category,
          createdAt: attributes.addDate.flatMap(date(fromAddDate:))))
      last = .link
    } else if equal(name, "DT") || equal(name, "P") {
      // NB: the commonest tags, which change nothing.
    } else if equal(name, "DD") {
      let textStart = index
      while index < bytes.count, bytes[index] != ascii("<") {
        if bytes[index] == ascii("\n") { line += 1 }
        index += 1
      }
      if last == .link {
        let memo = clean(bytes[textStart..<index])
        links[links.count - 1].memo = memo.isEmpty ? nil : memo
      }
      last = .other
    } else if equal(name, "H3") {
      pendingFolder = clean(try content(closedBy: "H3", openedOn: start))
      last = .other
    } else if equal(name, "DL") {
      lists.append((pendingFolder, start))
      pendingFolder = nil
      category = currentCategory()
      hasList = true
      last = .other
    } else if equal(name, "!DOCTYPE") {
      isMarked = isMarked || attributes.marksBookmarkFile
    }
  }

  /// The folders of the open lists, joined with ` / `; `nil` outside any folder.
  private func currentCategory() -> String? {
    let folders = lists.compactMap(\.folder).filter { !$0.isEmpty }
    return folders.isEmpty ? nil : folders.joined(separator: " / ")
  }

  /// Reads `name="value"` pairs up to the tag's `>`, keeping `HREF` and `ADD_DATE`.
  private mutating func readAttributes(openedOn start: Int) throws(InterchangeError)
    -> Attributes
  {
    var attributes = Attributes()
    while true {
      while index < bytes.count, isSpace(bytes[index]) || bytes[index] == ascii("/") {
        if bytes[index] == ascii("\n") { line += 1 }
        index += 1
      }
      guard index < bytes.count else {
        throw .truncated(file: file, line: start, reason: "a tag is never closed with '>'")
      }
      if bytes[index] == ascii(">") {
        index += 1
        return attributes
      }
      let nameStart = index
      while index < bytes.count, !isSpace(bytes[index]), bytes[index] != ascii("="),
        bytes[index] != ascii(">")
      {
        index += 1
      }
      let name = bytes[nameStart..<index]
      var value: ArraySlice<UInt8> = []
      if index < bytes.count, bytes[index] == ascii("=") {
        index += 1
        if index < bytes.count, bytes[index] == ascii("\"") || bytes[index] == ascii("'") {
          let quote = bytes[index]
          index += 1
          let valueStart = index
          while index < bytes.count, bytes[index] != quote {
            if bytes[index] == ascii("\n") { line += 1 }
            index += 1
          }
          guard index < bytes.count else {
            throw .truncated(
              file: file, line: start, reason: "an attribute's quotes are never closed")
          }
          value = bytes[valueStart..<index]
          index += 1
        } else {
          let valueStart = index
          while index < bytes.count, !isSpace(bytes[index]), bytes[index] != ascii(">") {
            index += 1
          }
          value = bytes[valueStart..<index]
        }
      }
      if equal(name, "HREF") {
        attributes.href = value
      } else if equal(name, "ADD_DATE") {
        attributes.addDate = value
      } else if contains(name, "NETSCAPE-BOOKMARK-FILE") {
        attributes.marksBookmarkFile = true
      }
    }
  }

  /// The raw content up to `</name>` (any case), after which reading goes on.
  private mutating func content(closedBy name: String, openedOn start: Int)
    throws(InterchangeError) -> ArraySlice<UInt8>
  {
    let closing = "</\(name)"
    let length = closing.utf8.count
    var cursor = index
    while cursor < bytes.count {
      if bytes[cursor] == ascii("<"), matches(closing, at: cursor),
        cursor + length < bytes.count,
        bytes[cursor + length] == ascii(">") || isSpace(bytes[cursor + length])
      {
        let content = bytes[index..<cursor]
        guard let end = find(">", from: cursor) else { break }
        advance(to: end + 1)
        return content
      }
      cursor += 1
    }
    let element = name == "A" ? "a bookmark's title" : "a folder's name"
    throw .truncated(file: file, line: start, reason: "\(element) is never closed with </\(name)>")
  }

  // MARK: Helpers

  private func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }

  private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private func lowercase(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
  }

  /// Whether `pattern` (ASCII) is at `position`, ignoring letter case.
  private func matches(_ pattern: String, at position: Int) -> Bool {
    var cursor = position
    for byte in pattern.utf8 {
      guard cursor < bytes.count, lowercase(bytes[cursor]) == lowercase(byte) else {
        return false
      }
      cursor += 1
    }
    return true
  }

  /// Whether `bytes` spell `name` (ASCII), ignoring letter case.
  private func equal(_ bytes: ArraySlice<UInt8>, _ name: String) -> Bool {
    bytes.count == name.utf8.count
      && zip(bytes, name.utf8).allSatisfy { lowercase($0) == lowercase($1) }
  }

  /// Whether `bytes` hold `name` (ASCII), ignoring letter case.
  private func contains(_ bytes: ArraySlice<UInt8>, _ name: String) -> Bool {
    let pattern = Array(name.utf8)
    guard bytes.count >= pattern.count else { return false }
    return (bytes.startIndex...(bytes.endIndex - pattern.count)).contains { start in
      zip(bytes[start...], pattern).allSatisfy { lowercase($0) == lowercase($1) }
    }
  }

  private func find(_ text: String, from position: Int) -> Int? {
    var cursor = position
    while cursor < bytes.count {
      if matches(text, at: cursor) { return cursor }
      cursor += 1
    }
    return nil
  }

  /// Moves to `position`, counting the lines passed.
  private mutating func advance(to position: Int) {
    while index < position {
      if bytes[index] == ascii("\n") { line += 1 }
      index += 1
    }
  }

  /// Text content: tags removed, entities decoded, runs of whitespace made one space, trimmed.
  private func clean(_ raw: ArraySlice<UInt8>) -> String {
    var stripped: [UInt8] = []
    stripped.reserveCapacity(raw.count)
    var inTag = false
    for byte in raw {
      if inTag {
        if byte == ascii(">") { inTag = false }
      } else if byte == ascii("<") {
        inTag = true
      } else {
        stripped.append(byte)
      }
    }
    var text: [UInt8] = []
    text.reserveCapacity(stripped.count)
    var pendingSpace = false
    for byte in decodingEntities(stripped[...]) {
      if isSpace(byte) {
        pendingSpace = !text.isEmpty
      } else {
        if pendingSpace { text.append(0x20) }
        pendingSpace = false
        text.append(byte)
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  /// `ADD_DATE`: seconds since 1970, or milliseconds or microseconds when the number is too
  /// large to be seconds; `nil` for zero, a negative number or no number.
  private func date(fromAddDate bytes: ArraySlice<UInt8>) -> Date? {
    var value: Int64 = 0
    var digits = 0
    for byte in bytes where !isSpace(byte) {
      guard (0x30...0x39).contains(byte), digits < 18 else { return nil }
      value = value * 10 + Int64(byte - 0x30)
      digits += 1
    }
    guard value > 0 else { return nil }
    let seconds =
      switch value {
      case 100_000_000_000_000...: Double(value) / 1_000_000
      case 100_000_000_000...: Double(value) / 1_000
      default: Double(value)
      }
    return Date(timeIntervalSince1970: seconds)
  }
}

/// The bytes with HTML entities decoded: `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&nbsp;` (a
/// space), decimal (`&#39;`) and hexadecimal (`&#x27;`) ones; anything else is left as it is.
private func decodingEntities(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
  let ampersand = UInt8(ascii: "&")
  guard bytes.contains(ampersand) else { return Array(bytes) }
  var result: [UInt8] = []
  result.reserveCapacity(bytes.count)
  var index = bytes.startIndex
  while index < bytes.endIndex {
    let byte = bytes[index]
    if byte == ampersand,
      let semicolon = bytes[index..<min(index + 12, bytes.endIndex)].firstIndex(
        of: UInt8(ascii: ";")),
      let scalar = entity(bytes[(index + 1)..<semicolon])
    {
      result += Array(String(Character(scalar)).utf8)
      index = semicolon + 1
    } else {
      result.append(byte)
      index += 1
    }
  }
  return result
}

/// The character an entity's name (between `&` and `;`) stands for.
private func entity(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
  switch String(decoding: name, as: UTF8.self) {
  case "amp": return "&"
  case "lt": return "<"
  case "gt": return ">"
  case "quot": return "\""
  case "apos": return "'"
  case "nbsp": return " "
  case let name where name.hasPrefix("#x") || name.hasPrefix("#X"):
    return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
  case let name where name.hasPrefix("#"):
    return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
  default:
    return nil
  }
}
