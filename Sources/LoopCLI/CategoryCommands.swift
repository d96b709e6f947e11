import AppFeature
import Categories
import CategoryClient
import Foundation
import LinkClient
import LinkList
import Loop

/// The `category` commands: categories are named by their names (unique ignoring case), found
/// in the categories' list, which is small and loaded for each command.
enum CategoryCommands {
  /// The commands, in the order `help` lists them.
  static let all = [add, list, rename, remove]

  private static let name = Argument("name", help: "the category's name (in any case)")

  /// `category add <name>`: the categories' `addSubmitted`.
  static let add = Command(
    noun: .category, verb: "add", summary: "Add a category.", name
  ) { session, name throws(CommandError) in
    try await session.send(.links(.categories(.addSubmitted(name: name))))
    session.console.print(
      "Added category '\(name.trimmingCharacters(in: .whitespacesAndNewlines))'.")
  }

  /// `category list`: the categories' `onAppear`, then the rows.
  static let list = Command.listing(
    noun: .category, summary: "List the categories with their numbers of links.",
    json: { session, window in window.apply(to: session.store.state.links.categories.rows.elements)
    },
    text: { session, window in
      CategoryRenderer(style: session.style).list(
        session.store.state.links.categories, window: window)
    })

  /// `category rename <name> <new name>`: the categories' `renameSubmitted`.
  static let rename = Command(
    noun: .category, verb: "rename", summary: "Rename a category.", name,
    Argument("new name", help: "the name it gets")
  ) { session, name, newName throws(CommandError) in
    let summary = try await session.category(named: name)
    try await session.send(.links(.categories(.renameSubmitted(summary.id, name: newName))))
    let renamed =
      session.store.state.links.categories.rows[id: summary.id]?.category.name ?? newName
    session.console.print("Renamed category '\(summary.category.name)' to '\(renamed)'.")
  }

  /// `category rm <name> [--yes]`: the categories' `deleteSubmitted`, its links kept.
  ///
  /// A category with links asks first (an alert), then sends its answer: the alert's yes
  /// (`.confirmDeletion`, also given by `--yes`) or its dismissal.
  static let remove = Command(
    noun: .category, verb: "rm",
    summary: "Delete a category; its links stay, uncategorized (asks first if it has links).",
    name, Option.yes
  ) { session, name, yes throws(CommandError) in
    let summary = try await session.category(named: name)
    let categoryName = summary.category.name
    try await session.send(.links(.categories(.deleteSubmitted(summary.id))))
    // NB: a failure an earlier command showed may still be presented; it asks nothing.
    if let alert = session.store.state.links.categories.destination?.alert, alert.yes != nil {
      guard
        let answer = try await session.answer(
          alert, yes: yes, dismiss: .links(.categories(.destination(.dismiss))),
          deleting: "category '\(categoryName)'",
          retry: "category rm \(SessionRecording.quoted(name)) --yes")
      else {
        session.console.print("Kept category '\(categoryName)'.")
        return
      }
      try await session.send(.links(.categories(.destination(.presented(.alert(answer))))))
    }
    let links =
      switch summary.linkCount {
      case 0: ""
      case 1: ": its link is uncategorized now"
      default: ": its \(summary.linkCount) links are uncategorized now"
      }
    session.console.print("Deleted category '\(categoryName)'\(links).")
  }
}

extension Session {
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
