import Categories
import CategoryClient
import LinkClient
import Loop

/// The categories as text: the list with each category's number of links.
struct CategoryRenderer {
  var style: Style

  /// The list: one row per category in `window`, in the feature's order (by name, ignoring
  /// case).
  func list(_ state: Categories.State, window: RowWindow = .all) -> [String] {
    guard !state.rows.isEmpty else {
      return ["No categories yet: add one with 'category add <name>'."]
    }
    var table = Table(columns: [
      Table.Column(header: "CATEGORY", isCut: true),
      Table.Column(header: "LINKS", alignment: .right),
    ])
    for row in window.apply(to: state.rows.elements) {
      table.rows.append([row.category.name, "\(row.linkCount)"])
    }
    return table.render(style: style)
  }
}
