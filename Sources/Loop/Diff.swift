/// Renders a value as text, and the structural difference between two values showing only what
/// differs.
///
/// The TestStore prints a failed state assertion with ``lines(_:_:)``, and `_printChanges()`
/// prints each state change with it:
///
/// ```
///   Counter.State(
/// −   count: 0,
/// +   count: 1,
///     isEven: false
///   )
/// ```
///
/// Each line of a diff starts with a two-character marker column: `− ` (U+2212) for the old
/// (expected) value, `+ ` for the new (actual) value, two spaces for context. The body is
/// indented two spaces per nesting level. Callers add a legend such as
/// `(Expected: −, Actual: +)`.
///
/// ## How values render
/// - Structs, classes and tuples: `TypeName(`, one `label: value` per line, `)`. Type names are
///   qualified by their enclosing types, without the module: `Counter.State`.
/// - Enums: `.caseName`, or `.caseName(` payload `)` (inline when the payload is a single
///   unlabelled one-line value: `.queryChanged("milk")`). The root value is qualified by its type:
///   `Counter.Action.incrementSubmitted`.
/// - Optionals: `nil`, or the wrapped value as is.
/// - Arrays and `IdentifiedArray`: `[` … `]`; a `StackState`: `[` `#0: element` … `]`, each
///   element under its id; dictionaries: `[` `key: value` … `]` in key order;
///   sets: `Set([` … `])` in element order. Keys and elements sort by `Comparable` when they all
///   share one comparable type, otherwise by their one-line dump.
/// - Strings: quoted with escapes; a multi-line string as a `"""` block.
/// - `Date(2026-11-29T16:00:00.000Z)`, `UUID(…uuidString…)`, `URL(…absoluteString…)`,
///   `TextState("…")`, a stack element's id as `#0`; numbers, booleans and other
///   `CustomStringConvertible` values without reflected children by their description;
///   `Character` quoted.
///
/// ## What a diff shows
/// Nodes of the same type and case are compared child by child; anything else that differs is
/// printed whole, old then new. Array elements match by id when they are `Identifiable` (or the
/// array is an `IdentifiedArray` or a `StackState`), else by a longest common subsequence when
/// the arrays are short and by position beyond that. Unchanged siblings near a change are shown when they fit on one
/// short line; the others collapse into `… (N unchanged)`.
///
/// Values that are `==` are treated as unchanged without being reflected, which keeps the diff
/// proportional to what changed rather than to the size of the state.
package enum Diff {
  /// Returns the difference between two values, or `nil` when they render identically.
  ///
  /// `nil` also comes back for values that are not `==` but have no visible difference (a
  /// custom `==`, a `Double.nan`): the caller, such as the TestStore, reports that case with its
  /// own message.
  ///
  /// - Parameters:
  ///   - old: The old or expected value, whose lines are marked `−`.
  ///   - new: The new or actual value, whose lines are marked `+`.
  /// - Returns: The diff's lines joined by newlines, without a trailing newline, or `nil`.
  /// - Complexity: O(*n*) in the size of the values, plus O(*k* log *k*) to match *k* rows by id
  ///   or sort *k* keys; an LCS runs only on sequences of a few hundred elements.
  package static func lines<T>(_ old: T, _ new: T) -> String? {
    let printer = Printer()
    let lines = printer.diff(
      old, new, label: nil, depth: 0, commas: Commas(old: false, new: false), root: true)
    return lines.map { $0.map(\.marked).joined(separator: "\n") }
  }

  /// Returns one value rendered in full, in the format of ``lines(_:_:)``.
  ///
  /// The dump has no marker column: its first line starts at column zero, and nested lines are
  /// indented two spaces per level, so a caller can indent the whole block as it likes.
  ///
  /// ```swift
  /// Diff.dump(Counter.Action.incrementSubmitted)  // "Counter.Action.incrementSubmitted"
  /// ```
  ///
  /// - Parameter value: The value to render.
  /// - Returns: The lines joined by newlines, without a trailing newline.
  package static func dump(_ value: Any) -> String {
    let printer = Printer()
    var lines: [Line] = []
    printer.render(
      value, label: nil, depth: 0, comma: false, root: true, marker: .context, into: &lines)
    return lines.map(\.indented).joined(separator: "\n")
  }
}

extension Diff {
  /// One line of output, before the marker column and indentation are applied.
  struct Line: Equatable {
    /// Which side of the diff a line belongs to.
    enum Marker {
      case context
      case removed
      case inserted
    }

    var marker: Marker
    var depth: Int
    var text: String

    /// The line with its marker column and indentation, and no trailing spaces when empty.
    var marked: String {
      let column =
        switch marker {
        case .context: text.isEmpty ? "" : "  "
        case .removed: text.isEmpty ? "\u{2212}" : "\u{2212} "
        case .inserted: text.isEmpty ? "+" : "+ "
        }
      return column + indented
    }

    /// The line with its indentation only, or nothing for an empty line (in a string block).
    var indented: String { text.isEmpty ? "" : String(repeating: "  ", count: depth) + text }
  }

  /// Whether the line that ends a value takes a comma on the old and on the new side: a value
  /// takes one when a sibling follows it on that side.
  struct Commas {
    var old: Bool
    var new: Bool
  }

  /// The number of unchanged siblings shown on each side of a change.
  static let contextRadius = 3

  /// The longest one-line value shown as context; longer unchanged values collapse.
  static let contextWidth = 80

  /// The largest product of two sequences' lengths aligned by a longest common subsequence;
  /// longer sequences align by position, so the diff never goes quadratic on big arrays.
  static let alignmentLimit = 90_000
}

extension String {
  /// The text with every line after the first indented by `spaces`, for nesting a multi-line
  /// dump inside an indented message.
  package func indentingContinuationLines(by spaces: Int) -> String {
    split(separator: "\n", omittingEmptySubsequences: false)
      .joined(separator: "\n" + String(repeating: " ", count: spaces))
  }

  /// The text with every line indented by `spaces`.
  package func indentingLines(by spaces: Int) -> String {
    String(repeating: " ", count: spaces) + indentingContinuationLines(by: spaces)
  }
}
