import AppFeature
import Categories
import CategoryClient
import Foundation
import LinkClient

// The `category` commands: categories are named by their names (unique ignoring case), found
// in the categories' list, which is small and loaded for each command.
extension Session {
  /// `category add <name>`: the categories' `addSubmitted`.
  func categoryAdd(_ invocation: Invocation) async throws(CommandError) {
    let name = invocation[argument: "name"] ?? ""
    try await send(.links(.categories(.addSubmitted(name: name))))
    console.print("Added category '\(name.trimmingCharacters(in: .whitespacesAndNewlines))'.")
  }

  /// `category list`: the categories' `loadRequested`, then the rows.
  func categoryList(_ invocation: Invocation) async throws(CommandError) {
    try await reload(.category)
    let rows = store.state.links.categories.rows.elements
    if invocation.wantsJSON {
      try printJSON(rows)
      return
    }
    guard !rows.isEmpty else {
      console.print("No categories yet: add one with 'category add <name>'.")
      return
    }
    var table = Table(columns: [
      Table.Column(header: "CATEGORY"), Table.Column(header: "LINKS", alignment: .right),
    ])
    for row in rows { table.rows.append([row.category.name, "\(row.linkCount)"]) }
    for line in table.render(style: style) { console.print(line) }
  }

  /// `category rename <name> <new name>`: the categories' `renameSubmitted`.
  func categoryRename(_ invocation: Invocation) async throws(CommandError) {
    let summary = try await category(named: invocation[argument: "name"] ?? "")
    let newName = invocation[argument: "new name"] ?? ""
    try await send(.links(.categories(.renameSubmitted(summary.id, name: newName))))
    let renamed = store.state.links.categories.rows[id: summary.id]?.category.name ?? newName
    console.print("Renamed category '\(summary.category.name)' to '\(renamed)'.")
  }

  /// `category rm <name>`: the categories' `deleteTapped`; its links stay, uncategorized.
  func categoryRemove(_ invocation: Invocation) async throws(CommandError) {
    let summary = try await category(named: invocation[argument: "name"] ?? "")
    try await send(.links(.categories(.deleteTapped(summary.id))))
    let links =
      switch summary.linkCount {
      case 0: ""
      case 1: ": its link is uncategorized now"
      default: ": its \(summary.linkCount) links are uncategorized now"
      }
    console.print("Deleted category '\(summary.category.name)'\(links).")
  }

  /// The category named `name` (ignoring case and surrounding spaces), from the categories
  /// loaded for it.
  func category(named name: String) async throws(CommandError) -> CategorySummary {
    try await reload(.category)
    let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard
      let summary = store.state.links.categories.rows.first(where: {
        $0.category.name.caseInsensitiveCompare(wanted) == .orderedSame
      })
    else {
      throw CommandError(
        "no category is named '\(name)'",
        hints: ["'category list' shows the categories; 'category add \(wanted)' adds one"])
    }
    return summary
  }
}
