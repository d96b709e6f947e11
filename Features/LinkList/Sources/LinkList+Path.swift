import Categories
import LinkClient
import Loop

extension LinkList {
  /// The screens pushed onto the links' navigation stack (``LinkList/LinkList/State/path``): a
  /// category's links, and a link opened from them, with its comments.
  ///
  /// ```swift
  /// store.send(.categorySelected(work.id))  // path: [.category(…)]
  /// store.send(.path(.element(id: 0, action: .category(.rows(.element(id: swift.id, action: .selected))))))
  /// // path: [.category(…), .detail(…)]; popping the category pops the link too
  /// store.send(.path(.popFrom(id: 0)))
  /// ```
  ///
  /// A category's links are the "All links" screen (``AllLinks``) filtered by the category, and
  /// a link is its ``LinkDetail``, which the parent serves as it serves the presented one: it
  /// deletes and edits the link the detail asks about.
  public struct Path: Reducer {
    /// A pushed screen.
    public enum State: Equatable, Sendable {
      /// A category's links.
      case category(AllLinks.State)
      /// A link with its comments.
      case detail(LinkDetail.State)
    }

    /// A pushed screen's action.
    public enum Action: Equatable, Sendable {
      /// The category's links' action.
      case category(AllLinks.Action)
      /// The link's action.
      case detail(LinkDetail.Action)
    }

    /// Creates the reducer.
    public init() {}

    /// Each screen on its case.
    public var body: some ReducerOf<Self> {
      Scope(state: .case(State.category), action: .case(Action.category)) { AllLinks() }
      Scope(state: .case(State.detail), action: .case(Action.detail)) { LinkDetail() }
    }
  }

  /// Pushes `screen` and sends it `action`: its first load.
  func push(
    _ screen: Path.State, then action: Path.Action, _ state: inout State
  ) -> Effect<Action> {
    state.path.append(screen)
    guard let id = state.path.ids.last else { return .none }
    return .send(.path(.element(id: id, action: action)))
  }
}

extension LinkList.Path.State {
  /// The category's links, when this screen shows them.
  public var category: AllLinks.State? {
    guard case .category(let links) = self else { return nil }
    return links
  }

  /// The link, when this screen shows one.
  public var detail: LinkDetail.State? {
    guard case .detail(let detail) = self else { return nil }
    return detail
  }
}

extension StackState<LinkList.Path.State> {
  /// Pops a deleted link's first screen, with those above it (its rows left the category
  /// screens with the shared links).
  mutating func remove(link id: Link.ID) {
    guard let index = firstIndex(where: { $0.detail?.linkID == id }) else { return }
    pop(from: ids[index])
  }

  /// Takes a deleted category off the stack: pops its first screen, with those above it.
  mutating func remove(category id: Category.ID) {
    guard let index = firstIndex(where: { $0.category?.categoryFilter == id }) else { return }
    pop(from: ids[index])
  }

  /// Shows a category's new name on the rows of its screens.
  mutating func show(renamed category: Category) {
    for screenID in ids {
      guard case .category(var links)? = self[id: screenID],
        links.categoryFilter == category.id
      else { continue }
      links.categoryNames[category.id] = category.name
      self[id: screenID] = .category(links)
    }
  }

  /// Loads every category screen again (a saved link may have changed category or title).
  var reloadingCategories: Effect<LinkList.Action> {
    .merge(
      zip(ids, self).compactMap { id, screen in
        screen.category.map { _ in .send(.path(.element(id: id, action: .category(.onAppear))))
        }
      })
  }
}
