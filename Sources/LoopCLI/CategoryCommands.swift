import AppFeature
import Categories
import CategoryClient
import Foundation
import LinkClient

/// The `category` commands: categories are named by their names (unique ignoring case), found
/// in the categories' list, which is small and loaded for each command.
enum CategoryCommands {
  /// The commands, in the order `help` lists them.
  static let all = [add, list, rename, remove]

  private static let name = Argument(name: "name")

  /// `category add <name>`: the categories' `addSubmitted`.
  static let add = Command(
    noun: .category, verb: "add", arguments: [name], summary: "Add a category."
  ) { session, input throws(CommandError) in
    try await session.send(.links(.categories(.addSubmitted(name: input[name]))))
    session.console.print(
      "Added category '\(input[name].trimmingCharacters(in: .whitespacesAndNewlines))'.")
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

  private static let newName = Argument(name: "new name")

  /// `category rename <name> <new name>`: the categories' `renameSubmitted`.
  static let rename = Command(
    noun: .category, verb: "rename", arguments: [name, newName], summary: "Rename a category."
  ) { session, input throws(CommandError) in
    let summary = try await session.category(named: input[name])
    try await session.send(.links(.categories(.renameSubmitted(summary.id, name: input[newName]))))
    let renamed =
      session.store.state.links.categories.rows[id: summary.id]?.category.name ?? input[newName]
    session.console.print("Renamed category '\(summary.category.name)' to '\(renamed)'.")
  }

  /// `category rm <name> [--yes]`: the categories' `deleteSubmitted`, its links kept.
  ///
  /// A category with links asks first (an alert), then sends its answer: the alert's yes
  /// (`.confirmDeletion`, also given by `--yes`) or its dismissal.
  static let remove = Command(
    noun: .category, verb: "rm", arguments: [name], options: [.yes],
    summary: "Delete a category; its links stay, uncategorized (asks first if it has links)."
  ) { session, input throws(CommandError) in
    let summary = try await session.category(named: input[name])
    let categoryName = summary.category.name
    try await session.send(.links(.categories(.deleteSubmitted(summary.id))))
    if let alert = session.store.state.links.categories.alert {
      guard
        let answer = try await session.answer(
          alert, input, dismiss: .links(.categories(.alert(.dismiss))),
          deleting: "category '\(categoryName)'",
          retry: "category rm \(SessionRecording.quoted(input[name])) --yes")
      else {
        session.console.print("Kept category '\(categoryName)'.")
        return
      }
      try await session.send(.links(.categories(.alert(.presented(answer)))))
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
