import Categories
import CategoryClient
import DraftEditor
import LinkClient
import Loop

/// The links part of the app: three screens of links (all, search, recent), the categories,
/// the link editor and an opened link with its comments.
///
/// The three screens share one row (``LinkRow``) and one reducer that serves it (`LinkRows`:
/// a row opens its link through the screen's delegate, a favorite is saved through the client);
/// this root decides what crosses screens:
/// - opening a link from any screen (or ``Action/linkSelected(_:)``) presents ``LinkDetail``
///   (``Destination/State/detail(_:)``), which records the view; `.destination(.dismiss)` closes
///   it;
/// - adding or updating a link goes through the presented ``LinkEditor``
///   (``Destination/State/editor(_:)``; editing the opened link presents it in the detail's
///   place); this root saves the draft through the client, closes the editor and reloads the
///   current screen, or hands the client's failure to the editor, which stays open with its
///   draft and shows it in its own alert; the user may also close it (it dismisses itself);
/// - a draft filled in elsewhere (a text interface's `link add`) is saved in one step, without
///   the editor: ``Action/addLinkSubmitted(_:)`` and ``Action/updateLinkSubmitted(_:_:)`` save it
///   through the client and answer with the ``SavedLink`` (and the digits of its id that name it
///   alone); an added link shows on "All links" if its place is among the rows loaded (the
///   screen reloads instead when the categories were never loaded, so the row can name its
///   category), an updated one on every screen that shows it (one change to the shared links)
///   and on the reloaded screen;
/// - deleting a link (``Action/deleteLinkSubmitted(_:)``, or from the detail) removes it from the
///   shared links, which takes it off every screen in one change, closes its detail, and reloads
///   the current screen;
/// - selecting a category filters "All links"; renaming or deleting one reloads it;
/// - opening a category (``Action/categorySelected(_:)``) pushes its links onto the navigation
///   stack (``State/path``), and opening a link there pushes its detail (``Path``); the pushed
///   screens follow deletions, saves and renames as the others do;
/// - what a text interface asks and no screen shows (which links a ref names, a preview that
///   records no view) is ``LinkLookup``'s; a loaded preview shows as the opened link.
///
/// The detail, the editor and an alert are the links' ``Destination``s, one at a time. A failure
/// of the client this root asked (a deletion, a save in one step, a save whose editor was
/// closed) is presented as an alert (``Destination/State/alert(_:)``, made by
/// `AlertState.failure(_:)`) in place of what was presented; it asks nothing and closes on
/// `.destination(.dismiss)`. Each screen shows its own failures in its own alert, and a text
/// interface reads a failure from the typed response that carried it.
///
/// What the screens show of the links is one shared value (``State/links``, an identified array of
/// ``LoadedLink``), which this root hands to each screen it makes, as `Habits` hands its detail a
/// habit: a screen keeps only which links it shows, in its order, and its own extras, and reads
/// its rows through the shared value. So a link deleted, favorited (on any screen) or saved is one
/// change that every screen shows at once, with no copy to keep in step; a screen still reloads to
/// learn which links it lists now. The root lets go of a loaded link once no screen shows it (after
/// a screen loads, or when what is presented or pushed changes), so the shared value holds no more
/// than the screens show.
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
    /// What the links present: the opened link, the editor, or a failure shown to the user (why
    /// a deletion or a save failed); `nil` for none.
    @Presents public var destination: Destination.State?
    /// The ref lookups and previews.
    public var lookup: LinkLookup.State
    /// The screens pushed from the categories: a category's links, then a link's detail.
    public var path: StackState<Path.State>
    /// What the links part loaded about the links its screens show, shared with each of them.
    ///
    /// Every screen reads its rows through it, so a change to it is every screen's. Change it
    /// with `withLock` (`state.$links.withLock { … }`).
    @Shared public var links: IdentifiedArrayOf<LoadedLink>

    /// Creates the state; nothing is loaded by default.
    ///
    /// The screens given then share one ``links``: what each was given, together (where two
    /// were given the same link, one that has its details, read whole, over one that has not).
    public init(
      screen: Screen = .all, all: AllLinks.State = AllLinks.State(),
      search: SearchLinks.State = SearchLinks.State(),
      recent: RecentLinks.State = RecentLinks.State(),
      categories: Categories.State = Categories.State(), destination: Destination.State? = nil,
      lookup: LinkLookup.State = LinkLookup.State(),
      path: StackState<Path.State> = StackState()
    ) {
      self.screen = screen
      self.all = all
      self.search = search
      self.recent = recent
      self.categories = categories
      self.destination = destination
      self.lookup = lookup
      self.path = path
      var links = IdentifiedArrayOf<LoadedLink>()
      func take(_ loaded: some Sequence<LoadedLink>) {
        for link in loaded where links[id: link.id]?.details == nil {
          links[id: link.id] = link
        }
      }
      take(all.links)
      take(search.links)
      take(recent.links)
      take(destination?.detail?.loadedLink.map { [$0] } ?? [])
      for screen in path {
        switch screen {
        case .category(let category): take(category.links)
        case .detail(let detail): take(detail.loadedLink.map { [$0] } ?? [])
        }
      }
      let shared = Shared(value: links)
      self._links = shared
      self.all.$links = shared
      self.search.$links = shared
      self.recent.$links = shared
      if case .detail(var detail) = destination {
        detail.$loadedLink = shared[id: detail.linkID]
        self.destination = .detail(detail)
      }
      for id in path.ids {
        switch path[id: id] {
        case .category(var category)?:
          category.$links = shared
          self.path[id: id] = .category(category)
        case .detail(var detail)?:
          detail.$loadedLink = shared[id: detail.linkID]
          self.path[id: id] = .detail(detail)
        case nil: break
        }
      }
    }

    /// Lets go of the loaded links no screen shows: those of no screen's rows, and no opened
    /// link's.
    ///
    /// - Complexity: O(*n*) in the links loaded and the rows of the screens.
    mutating func letGoOfUnshownLinks() {
      // NB: read once: each read of a shared value looks its reference up.
      let loaded = links
      guard !loaded.isEmpty else { return }
      // NB: each shown id marks its link's place. A screen's rows mostly follow the loaded
      // links in order, so each id is looked for first after the last one found: no hashing.
      // A set of the shown ids hashed every row and then every link again, after each page.
      // NB: marked through a parameter, not a capture: a captured variable is boxed, and each
      // write to it checked for exclusive access.
      var isShown = [Bool](repeating: false, count: loaded.count)
      func mark(_ ids: some Sequence<Link.ID>, in isShown: inout [Bool]) {
        var next = 0
        for id in ids {
          guard let position = loaded.index(id: id, expectedAt: next) else { continue }
          isShown[position] = true
          next = position + 1
        }
      }
      mark(all.rowIDs, in: &isShown)
      mark(search.rowIDs, in: &isShown)
      mark(recent.rowIDs, in: &isShown)
      if let id = destination?.detail?.linkID { mark(CollectionOfOne(id), in: &isShown) }
      for screen in path {
        switch screen {
        case .category(let category): mark(category.rowIDs, in: &isShown)
        case .detail(let detail): mark(CollectionOfOne(detail.linkID), in: &isShown)
        }
      }
      // NB: a list that pages drops its oldest rows, the first links loaded: they go with
      // `removeFirst`, which forgets only their ids, where a removal by scan reindexes every
      // link kept. No change when all are shown.
      let leading = isShown.firstIndex(of: true) ?? loaded.count
      let unshownLater = Set(
        isShown.indices.dropFirst(leading).lazy.filter { !isShown[$0] }.map { loaded.ids[$0] })
      guard leading > 0 || !unshownLater.isEmpty else { return }
      $links.withLock { links in
        links.removeFirst(leading)
        if !unshownLater.isEmpty { links.removeAll { unshownLater.contains($0.id) } }
      }
    }

    /// What is opened over the screens: the presented link and the pushed screens.
    ///
    /// When it changes, the links no screen shows any more are let go of.
    var opened: Opened {
      Opened(detail: destination?.detail?.linkID, path: path.ids)
    }

    struct Opened: Equatable {
      var detail: Link.ID?
      var path: [StackElementID]
    }
  }

  /// What the links present over themselves, one at a time: the opened link, the editor of a
  /// link, or a failure of the client.
  ///
  /// ```swift
  /// store.send(.linkSelected(id))  // state.destination == .detail(…)
  /// store.send(.destination(.presented(.detail(.editSubmitted))))  // .editor(…) in its place
  /// store.send(.destination(.dismiss))  // state.destination == nil
  /// ```
  public struct Destination: Reducer {
    /// The presented child.
    public enum State: Equatable, Sendable, CasePathable {
      /// A failure of the client, which asks nothing.
      case alert(AlertState<Alert>)
      /// A link opened on its own, with its comments.
      case detail(LinkDetail.State)
      /// The editor of a new or a stored link.
      case editor(LinkEditor.State)

      /// The link client's failure, when that is what is presented; set, it changes in place.
      public var alert: AlertState<Alert>? {
        get { self[case: .case(State.alert)] }
        set { self[case: .case(State.alert)] = newValue }
      }

      /// The opened link, when that is what is presented; set, it changes in place.
      public var detail: LinkDetail.State? {
        get { self[case: .case(State.detail)] }
        set { self[case: .case(State.detail)] = newValue }
      }

      /// The editor, when that is what is presented; set, it changes in place.
      public var editor: LinkEditor.State? {
        get { self[case: .case(State.editor)] }
        set { self[case: .case(State.editor)] = newValue }
      }
    }

    /// What the opened link, the editor or the failure alert sends.
    public enum Action: Equatable, Sendable {
      /// The alert's answer: none, a failure asks nothing.
      case alert(Alert)
      /// The opened link's action.
      case detail(LinkDetail.Action)
      /// The editor's action.
      case editor(LinkEditor.Action)
    }

    /// The answers to the links' alerts: none, a failure asks nothing.
    public enum Alert: Equatable, Sendable {}

    /// Creates the reducer.
    public init() {}

    /// Each child on its case.
    public var body: some ReducerOf<Self> {
      Scope(state: .case(State.alert), action: .case(Action.alert)) { EmptyReducer() }
      Scope(state: .case(State.detail), action: .case(Action.detail)) { LinkDetail() }
      Scope(state: .case(State.editor), action: .case(Action.editor)) { LinkEditor() }
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
    /// The presented child's action (the opened link's, the editor's), or the closing of what
    /// is presented.
    case destination(PresentationAction<Destination.Action>)
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
        state.destination = .alert(.failure(error))
        return .none

      case .addLinkSubmitted(let draft):
        return .run { send in
          await send(
            .addLinkResponse(
              Result { try await Self.saved(linkClient.addLink(draft), linkClient) }))
        }

      case .newLinkSubmitted:
        state.destination = .editor(
          LinkEditor.State(mode: .add, draft: LinkDraft(categoryID: state.all.categoryFilter)))
        return .none

      case .all(.delegate(.openLink(let id))), .recent(.delegate(.openLink(let id))),
        .search(.delegate(.openLink(let id))), .linkSelected(let id):
        return open(id, &state)

      case .categorySelected(let categoryID):
        return push(
          .category(AllLinks.State(categoryFilter: categoryID, links: state.$links)),
          then: .category(.onAppear), &state)

      case .path(.element(_, .category(.delegate(.openLink(let id))))):
        return push(
          .detail(LinkDetail.State(linkID: id, links: state.$links)), then: .detail(.onAppear),
          &state)

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
        // NB: one change takes the link off every screen, pushed ones too.
        state.$links.withLock { _ = $0.remove(id: id) }
        // NB: a shared value changes what the screens show, not which screens are open: the
        // opened link's screens close here.
        if state.destination?.detail?.linkID == id { state.destination = nil }
        state.path.remove(link: id)
        return load(state.screen)

      case .deleteLinkResponse(.failure(let error)):
        state.destination = .alert(.failure(error))
        return .none

      case .deleteLinkSubmitted(let id),
        .destination(.presented(.detail(.delegate(.deleteLink(let id))))),
        .path(.element(_, .detail(.delegate(.deleteLink(let id))))):
        return .run { send in
          await send(.deleteLinkResponse(Result { try await linkClient.deleteLink(id) }.map { id }))
        }

      case .destination(.presented(.detail(.delegate(.editLink(let link))))),
        .path(.element(_, .detail(.delegate(.editLink(let link))))):
        // NB: from the presented detail, the editor is presented in its place.
        state.destination = .editor(
          LinkEditor.State(mode: .update(link.id), draft: LinkDraft(link)))
        return .none

      case .destination(.presented(.editor(.delegate(.save(let mode, let draft))))):
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
        state.$links.withLock { $0.show(content.link) }
        state.destination = .detail(
          LinkDetail.State(
            linkID: content.link.id, links: state.$links,
            comments: IdentifiedArray(uniqueElements: content.comments)))
        return .none

      case .saveLinkResponse(.success(let link)):
        if state.destination?.editor?.isSaving == true {
          state.destination = nil
        }
        return show(saved: link, &state)

      case .saveLinkResponse(.failure(let error)):
        guard state.destination?.editor?.isSaving == true else {
          state.destination = .alert(.failure(error))
          return .none
        }
        // NB: the editor asked for this save: it stays open with its draft and shows why.
        state.destination?.editor?.saveFailed(error)
        return .none

      case .screenSelected(let screen):
        state.screen = screen
        return load(screen)

      case .updateLinkResponse(.success(let saved)):
        return show(saved: saved.link, &state)

      case .updateLinkSubmitted(let id, let draft):
        return .run { send in
          await send(
            .updateLinkResponse(
              Result { try await Self.saved(linkClient.updateLink(id, draft), linkClient) }))
        }

      case .all, .categories, .destination, .lookup, .path, .recent, .search:
        return .none
      }
    }
    .ifLet(\.$destination, action: .case(Action.destination)) { Destination() }
    .forEach(\.path, action: .case(Action.path)) { Path() }
    .onChange(of: \.opened) { _, _ in
      Reduce { state, _ in
        state.letGoOfUnshownLinks()
        return .none
      }
    }
    Reduce { state, action in
      switch action {
      case .all(.linksResponse(.success)), .all(.nextPageResponse(.success)),
        .search(.searchResponse(.success)), .recent(.linksResponse(.success)),
        .path(.element(_, .category(.linksResponse(.success)))),
        .path(.element(_, .category(.nextPageResponse(.success)))):
        // NB: a screen loaded rows in place of others (or dropped its oldest).
        state.letGoOfUnshownLinks()
      default:
        break
      }
      return .none
    }
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
    state.destination = .detail(LinkDetail.State(linkID: id, links: state.$links))
    return .send(.destination(.presented(.detail(.onAppear))))
  }

  /// Shows a saved link on every screen that shows it, in one change to the shared links, and
  /// reloads the screens that list links (a new title or category may list it elsewhere).
  private func show(saved link: Link, _ state: inout State) -> Effect<Action> {
    state.$links.withLock { $0.update(link) }
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
