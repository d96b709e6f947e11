import Categories
import CategoryClient
import DraftEditor
import LinkClient
import Loop
import Persistence

/// The links part of the app: three screens of links (all, search, recent), the categories,
/// the link editor and an opened link with its comments.
///
/// The three screens share one row (``LinkRow``) and one reducer that serves it (`LinkRows`:
/// a row opens its link through the screen's delegate, a favorite is saved through the client);
/// this root decides what crosses screens:
/// - opening a link from any screen (or ``Action/linkSelected(_:)``) presents ``LinkDetail``,
///   which records the view; `.detail(.dismiss)` closes it;
/// - adding or updating a link goes through the presented ``LinkEditor``; this root saves the
///   draft through the client, closes the editor and reloads the current screen, or hands the
///   client's error to the editor, which the user may also close (it dismisses itself);
/// - a draft filled in elsewhere (a text interface's `link add`) is saved in one step, without
///   the editor: ``Action/addLinkSubmitted(_:)`` and ``Action/updateLinkSubmitted(_:_:)`` save it
///   through the client and answer with the ``SavedLink`` (and the digits of its id that name it
///   alone), or show the client's error; an added link shows on "All links" if its place is
///   among the rows loaded (the screen reloads instead when the categories were never loaded, so
///   the row can name its category), an updated one in the open detail and on the reloaded
///   screen;
/// - deleting a link (``Action/deleteLinkSubmitted(_:)``, or from the detail) removes it from every
///   screen, closes its detail, and reloads the current screen;
/// - selecting a category filters "All links"; renaming or deleting one reloads it;
/// - opening a category (``Action/categorySelected(_:)``) pushes its links onto the navigation
///   stack (``State/path``), and opening a link there pushes its detail (``Path``); the pushed
///   screens follow deletions, saves and renames as the others do;
/// - what a text interface asks and no screen shows (which links a ref names, a preview that
///   records no view) is ``LinkLookup``'s; a loaded preview shows as the opened link.
///
/// A favorite toggled on one screen is saved at once, and shows on the other screens when they
/// next load.
public struct LinkList: Reducer, Sendable {
  /// The screens of links.
  public enum Screen: String, Equatable, Sendable, CaseIterable, Codable {
    /// Every link, optionally a category's.
    case all
    /// Links found by a query.
    case search
    /// The links viewed most recently.
    case recent
  }

  /// The state of the links part of the app.
  public struct State: Equatable, Sendable {
    /// The screen shown.
    public var screen: Screen
    /// The "All links" screen.
    public var all: AllLinks.State
    /// The "Search" screen.
    public var search: SearchLinks.State
    /// The "Recent" screen.
    public var recent: RecentLinks.State
    /// The categories.
    public var categories: Categories.State
    /// The link editor, while open.
    @Presents public var editor: LinkEditor.State?
    /// The opened link, while open.
    @Presents public var detail: LinkDetail.State?
    /// Why the last deletion, save in one step (or save whose editor was closed) failed, as a
    /// sentence for the user; `nil` otherwise.
    public var errorMessage: String?
    /// The ref lookups and previews.
    public var lookup: LinkLookup.State
    /// The screens pushed from the categories: a category's links, then a link's detail.
    public var path: StackState<Path.State>

    /// Creates the state; nothing is loaded by default.
    public init(
      screen: Screen = .all, all: AllLinks.State = AllLinks.State(),
      search: SearchLinks.State = SearchLinks.State(),
      recent: RecentLinks.State = RecentLinks.State(),
      categories: Categories.State = Categories.State(), editor: LinkEditor.State? = nil,
      detail: LinkDetail.State? = nil, errorMessage: String? = nil,
      lookup: LinkLookup.State = LinkLookup.State(),
      path: StackState<Path.State> = StackState()
    ) {
      self.screen = screen
      self.all = all
      self.search = search
      self.recent = recent
      self.categories = categories
      self.editor = editor
      self.detail = detail
      self.errorMessage = errorMessage
      self.lookup = lookup
      self.path = path
    }

    /// Every error message shown, in this order: the lookup's, the links part's own, then the
    /// screens' (all, search, recent), the opened link's and the pushed screens', bottom first
    /// (the editor presents its failures as alerts).
    public var errorMessages: [String] {
      // NB: appended one by one, so that no array is made when nothing failed: the REPL reads
      // the messages after every command.
      var messages: [String] = []
      if let message = lookup.errorMessage { messages.append(message) }
      if let message = errorMessage { messages.append(message) }
      if let message = all.errorMessage { messages.append(message) }
      if let message = search.errorMessage { messages.append(message) }
      if let message = recent.errorMessage { messages.append(message) }
      if let message = detail?.errorMessage { messages.append(message) }
      path.appendErrorMessages(to: &messages)
      return messages
    }

    /// Clears every message of ``errorMessages``: the user saw them.
    public mutating func dismissErrors() {
      lookup.errorMessage = nil
      errorMessage = nil
      all.errorMessage = nil
      search.errorMessage = nil
      recent.errorMessage = nil
      detail?.errorMessage = nil
      path.dismissErrors()
    }
  }

  /// What happens in the links part of the app.
  public enum Action: Equatable, Sendable {
    /// The client answered an add in one step.
    case addLinkResponse(Result<SavedLink, LinkError>)
    /// The user filled in a new link and saved it, in one step (no editor opens): the draft is
    /// saved through the client.
    case addLinkSubmitted(LinkDraft)
    /// The "All links" screen's action.
    case all(AllLinks.Action)
    /// The categories' action.
    case categories(Categories.Action)
    /// The user opened a category: its links are pushed onto ``State/path`` and loaded.
    case categorySelected(Category.ID)
    /// The client answered a deletion.
    case deleteLinkResponse(Result<Link.ID, LinkError>)
    /// The user asked to delete a link (and its comments).
    case deleteLinkSubmitted(Link.ID)
    /// The opened link's action, or its closing.
    case detail(PresentationAction<LinkDetail.Action>)
    /// The editor's action, or its closing.
    case editor(PresentationAction<LinkEditor.Action>)
    /// The user opened a link.
    case linkSelected(Link.ID)
    /// The ref lookups' and previews' action.
    case lookup(LinkLookup.Action)
    /// The user asked for an empty editor (in the category shown, if any).
    case newLinkSubmitted
    /// A pushed screen's action, a push, or a pop.
    case path(StackActionOf<Path>)
    /// The "Recent" screen's action.
    case recent(RecentLinks.Action)
    /// The client answered saving the editor's draft.
    case saveLinkResponse(Result<Link, LinkError>)
    /// The user switched screens: show it and load it.
    case screenSelected(Screen)
    /// The "Search" screen's action.
    case search(SearchLinks.Action)
    /// The client answered an update in one step.
    case updateLinkResponse(Result<SavedLink, LinkError>)
    /// The user changed a link and saved it, in one step (as ``addLinkSubmitted(_:)``).
    case updateLinkSubmitted(Link.ID, LinkDraft)
  }

  @Dependency(\.linkClient) var linkClient

  /// Creates the reducer.
  public init() {}

  /// The links part's logic: the screens, then what crosses them.
  public var body: some ReducerOf<Self> {
    Scope(state: \.all, action: .case(Action.all)) { AllLinks() }
    Scope(state: \.search, action: .case(Action.search)) { SearchLinks() }
    Scope(state: \.recent, action: .case(Action.recent)) { RecentLinks() }
    Scope(state: \.categories, action: .case(Action.categories)) { Categories() }
    Scope(state: \.lookup, action: .case(Action.lookup)) { LinkLookup() }
    Reduce { state, action in
      switch action {
      case .addLinkResponse(.success(let saved)):
        // NB: a new link has never been viewed: "Recent" does not show it.
        var reload = state.screen == .search ? load(.search) : .none
        let categoryName = saved.link.categoryID.flatMap {
          state.categories.rows[id: $0]?.category.name
        }
        if saved.link.categoryID != nil, categoryName == nil {
          // NB: the categories were never loaded, so the row could not name its category: "All
          // links" loads again if shown (its pages bring the names), or when next shown.
          if state.screen == .all { reload = load(.all) }
        } else {
          state.all.show(added: saved.link, categoryName: categoryName)
        }
        return .merge(reload, state.path.reloadingCategories)

      case .addLinkResponse(.failure(let error)), .updateLinkResponse(.failure(let error)):
        state.errorMessage = error.description
        return .none

      case .addLinkSubmitted(let draft):
        state.errorMessage = nil
        return .run { send in
          await send(
            .addLinkResponse(
              Result { try await Self.saved(linkClient.addLink(draft), linkClient) }))
        }

      case .newLinkSubmitted:
        state.editor = LinkEditor.State(
          mode: .add, draft: LinkDraft(categoryID: state.all.categoryFilter))
        return .none

      case .all(.delegate(.openLink(let id))), .recent(.delegate(.openLink(let id))),
        .search(.delegate(.openLink(let id))), .linkSelected(let id):
        return open(id, &state)

      case .categorySelected(let categoryID):
        return push(
          .category(AllLinks.State(categoryFilter: categoryID)), then: .category(.onAppear),
          &state)

      case .path(.element(_, .category(.delegate(.openLink(let id))))):
        return push(.detail(LinkDetail.State(linkID: id)), then: .detail(.onAppear), &state)

      case .categories(.delegate(.showLinks(in: let categoryID))):
        state.screen = .all
        // NB: "All links" loads when its filter changes; the filter it shows already is reloaded.
        guard state.all.categoryFilter != categoryID else { return .send(.all(.onAppear)) }
        return .send(.all(.categoryFilterChanged(categoryID)))

      case .categories(.delegate(.showRenamed(let category))):
        state.path.show(renamed: category)
        return .send(.all(.onAppear))

      case .categories(.delegate(.removeCategory(let categoryID))):
        state.path.remove(category: categoryID)
        guard state.all.categoryFilter == categoryID else { return .send(.all(.onAppear)) }
        return .send(.all(.categoryFilterChanged(nil)))

      case .deleteLinkResponse(.success(let id)):
        state.all.rows.remove(id: id)
        state.search.rows.remove(id: id)
        state.recent.rows.remove(id: id)
        if state.detail?.linkID == id { state.detail = nil }
        state.path.remove(link: id)
        return load(state.screen)

      case .deleteLinkResponse(.failure(let error)):
        state.errorMessage = error.description
        return .none

      case .deleteLinkSubmitted(let id), .detail(.presented(.delegate(.deleteLink(let id)))),
        .path(.element(_, .detail(.delegate(.deleteLink(let id))))):
        state.errorMessage = nil
        return .run { send in
          await send(.deleteLinkResponse(Result { try await linkClient.deleteLink(id) }.map { id }))
        }

      case .detail(.presented(.delegate(.editLink(let link)))),
        .path(.element(_, .detail(.delegate(.editLink(let link))))):
        state.editor = LinkEditor.State(mode: .update(link.id), draft: LinkDraft(link))
        return .none

      case .editor(.presented(.delegate(.save(let mode, let draft)))):
        return .run { send in
          await send(
            .saveLinkResponse(
              Result {
                switch mode {
                case .add: try await linkClient.addLink(draft)
                case .update(let id): try await linkClient.updateLink(id, draft)
                }
              }))
        }

      case .lookup(.delegate(.showPreview(let content))):
        state.detail = LinkDetail.State(
          linkID: content.link.id, link: content.link,
          comments: IdentifiedArray(uniqueElements: content.comments))
        return .none

      case .saveLinkResponse(.success(let link)):
        state.editor = nil
        return show(saved: link, &state)

      case .saveLinkResponse(.failure(let error)):
        guard state.editor != nil else {
          state.errorMessage = error.description
          return .none
        }
        state.editor?.isSaving = false
        state.editor?.alert = .failure(error)
        return .none

      case .screenSelected(let screen):
        state.screen = screen
        return load(screen)

      case .updateLinkResponse(.success(let saved)):
        return show(saved: saved.link, &state)

      case .updateLinkSubmitted(let id, let draft):
        state.errorMessage = nil
        return .run { send in
          await send(
            .updateLinkResponse(
              Result { try await Self.saved(linkClient.updateLink(id, draft), linkClient) }))
        }

      case .all, .categories, .detail, .editor, .lookup, .path, .recent, .search:
        return .none
      }
    }
    .ifLet(\.$editor, action: .case(Action.editor)) { LinkEditor() }
    .ifLet(\.$detail, action: .case(Action.detail)) { LinkDetail() }
    .forEach(\.path, action: .case(Action.path)) { Path() }
  }

  /// A link just stored, with the digits of its id that name it alone.
  ///
  /// NB: the link is stored whatever happens next: when its digits cannot be read, all 32 of
  /// them (which always name it alone) rather than a failure.
  private nonisolated(nonsending) static func saved(_ link: Link, _ linkClient: LinkClient) async
    -> SavedLink
  {
    let length = (try? await linkClient.fetchIDPrefixLength(link.id)) ?? 32
    return SavedLink(link: link, idPrefixLength: length)
  }

  /// Shows the link's detail, which records the view and loads the comments.
  private func open(_ id: Link.ID, _ state: inout State) -> Effect<Action> {
    state.detail = LinkDetail.State(linkID: id)
    return .send(.detail(.presented(.onAppear)))
  }

  /// Shows a changed link wherever it is open, and reloads the screens that list it.
  private func show(saved link: Link, _ state: inout State) -> Effect<Action> {
    if state.detail?.linkID == link.id { state.detail?.link = link }
    state.path.show(saved: link)
    return .merge(load(state.screen), state.path.reloadingCategories)
  }

  /// Reloads a screen.
  private func load(_ screen: Screen) -> Effect<Action> {
    switch screen {
    case .all: .send(.all(.onAppear))
    case .search: .send(.search(.onAppear))
    case .recent: .send(.recent(.onAppear))
    }
  }
}
