import CategoryClient
import LinkClient
import Loop

/// The categories screen: every category with its number of links; add, rename and delete
/// categories, and select one to filter the links.
///
/// The list is reloaded from the client after every change, so its order (by name, ignoring
/// case) and counts are always the client's. What the rest of the app must know is told to the
/// parent through ``Action/Delegate``: the selection (to filter the links), a rename (to show
/// the new name) and a deletion (its links are now uncategorized). A change is told once the
/// list has reloaded, so the parent's own reload never races it.
///
/// Deleting a category that has links asks first (``Destination/State/alert(_:)``): its links
/// stay, but lose their category. The answer is ``Action/destination(_:)``:
/// `.destination(.presented(.alert(.confirmDeletion(id))))` deletes, `.destination(.dismiss)`
/// keeps the category. A category without links is deleted at once.
///
/// A failure of the client is presented as an alert (``Destination/State/alert(_:)``, made by
/// `AlertState.failure(_:)`) in place of what was presented, and changes nothing else; closing
/// it is `.destination(.dismiss)`.
public struct Categories: Reducer, Sendable {
  /// The screen's state.
  public struct State: Equatable, Sendable {
    /// What the screen presents: the question before deleting a category that has links, or
    /// the client's failure; `nil` for none.
    @Presents public var destination: Destination.State?
    /// The categories with their link counts, by name ignoring case.
    public var rows: IdentifiedArrayOf<CategorySummary>
    /// The selected category, or `nil` for all links.
    public var selectedCategoryID: Category.ID?

    /// Creates the state.
    public init(
      rows: IdentifiedArrayOf<CategorySummary> = [], selectedCategoryID: Category.ID? = nil,
      destination: Destination.State? = nil
    ) {
      self.destination = destination
      self.rows = rows
      self.selectedCategoryID = selectedCategoryID
    }
  }

  /// What the screen presents over itself: an alert, which asks before a deletion or shows a
  /// failure of the client.
  ///
  /// ```swift
  /// store.send(.deleteSubmitted(id))  // state.destination == .alert(.deletion(of: row))
  /// store.send(.destination(.presented(.alert(.confirmDeletion(id)))))  // closes, deletes
  /// ```
  public struct Destination: Reducer {
    /// The presented child.
    public enum State: Equatable, Sendable {
      /// A question waiting for the user's answer (``Alert``), a deletion to confirm; or a
      /// failure of the client, which asks nothing.
      case alert(AlertState<Alert>)

      /// The alert presented.
      public var alert: AlertState<Alert> {
        switch self {
        case .alert(let alert): alert
        }
      }
    }

    /// The presented child's actions.
    public enum Action: Equatable, Sendable {
      /// The alert's answer; the alert then closes.
      case alert(Alert)
    }

    /// The answers to the screen's alerts.
    public enum Alert: Equatable, Sendable {
      /// Delete the category the user confirmed deleting; its links stay, uncategorized.
      case confirmDeletion(Category.ID)
    }

    /// Creates the reducer.
    public init() {}

    /// The alert on its case; it needs no reducer of its own.
    public var body: some ReducerOf<Self> {
      Scope(state: .case(State.alert), action: .case(Action.alert)) { EmptyReducer() }
    }
  }

  /// What happens on the screen.
  public enum Action: Equatable, Sendable {
    /// The client answered an add.
    case addResponse(Result<Category, LinkError>)
    /// The user submitted a new category's name.
    case addSubmitted(name: String)
    /// The user selected a category, or `nil` for all links.
    case categorySelected(Category.ID?)
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The client answered a delete.
    case deleteResponse(Result<Category.ID, LinkError>)
    /// The user asked to delete a category (its links stay, uncategorized); one with links is
    /// deleted once the user confirms it (``Destination/State/alert(_:)``).
    case deleteSubmitted(Category.ID)
    /// The answer to the question before a deletion, or the closing of the alert (which keeps
    /// the category, or puts a failure away).
    case destination(PresentationAction<Destination.Action>)
    /// The screen is shown (it appeared, or the user asked to refresh): its list loads.
    case onAppear
    /// The client answered a rename.
    case renameResponse(Result<Category, LinkError>)
    /// The user submitted a new name for a category.
    case renameSubmitted(Category.ID, name: String)
    /// The client answered a load.
    case summariesResponse(Result<[CategorySummary], LinkError>)

    /// What the parent is asked to do.
    public enum Delegate: Equatable, Sendable {
      /// Forget a deleted category: its links are uncategorized, and a filter on it is void.
      case removeCategory(Category.ID)
      /// Show the links of the category the user selected (`nil`: all links).
      case showLinks(in: Category.ID?)
      /// Show a category's new name wherever the old one is shown.
      case showRenamed(Category)
    }
  }

  private enum CancelID { case load }

  @Dependency(\.categoryClient) var categoryClient

  /// Creates the reducer.
  public init() {}

  /// The screen's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addSubmitted(let name):
        return .run { send in
          await send(.addResponse(Result { try await categoryClient.addCategory(name) }))
        }

      case .addResponse(.success):
        return load()

      case .categorySelected(let id):
        state.selectedCategoryID = id
        return .send(.delegate(.showLinks(in: id)))

      case .delegate:
        return .none

      case .destination(.presented(.alert(.confirmDeletion(let id)))):
        // NB: an answer with no question asked (reported by `ifLet`) deletes nothing.
        guard state.destination != nil else { return .none }
        return delete(id)

      case .destination(.dismiss):
        return .none

      case .deleteSubmitted(let id):
        // NB: a category the list does not hold goes to the client, which says it is missing.
        guard let row = state.rows[id: id], row.linkCount > 0 else { return delete(id) }
        state.destination = .alert(.deletion(of: row))
        return .none

      case .deleteResponse(.success(let id)):
        if state.selectedCategoryID == id { state.selectedCategoryID = nil }
        return .concatenate(load(), .send(.delegate(.removeCategory(id))))

      case .onAppear:
        return load()

      case .renameSubmitted(let id, let name):
        return .run { send in
          await send(
            .renameResponse(Result { try await categoryClient.updateCategory(id, name) }))
        }

      case .renameResponse(.success(let category)):
        return .concatenate(load(), .send(.delegate(.showRenamed(category))))

      case .summariesResponse(.success(let summaries)):
        state.rows = IdentifiedArray(uniqueElements: summaries)
        return .none

      case .addResponse(.failure(let error)), .deleteResponse(.failure(let error)),
        .renameResponse(.failure(let error)), .summariesResponse(.failure(let error)):
        state.destination = .alert(.failure(error))
        return .none
      }
    }
    .ifLet(\.$destination, action: .case(Action.destination)) { Destination() }
  }

  private func delete(_ id: Category.ID) -> Effect<Action> {
    return .run { send in
      await send(
        .deleteResponse(Result { try await categoryClient.deleteCategory(id) }.map { id }))
    }
  }

  private func load() -> Effect<Action> {
    return .run { send in
      await send(
        .summariesResponse(Result { try await categoryClient.fetchCategorySummaries() }))
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }
}

extension AlertState where Action == Categories.Destination.Alert {
  /// The question before deleting a category that has links: its links stay, uncategorized.
  ///
  /// - Parameter row: The category, with its number of links.
  /// - Returns: The alert, whose destructive button confirms the deletion.
  public static func deletion(of row: CategorySummary) -> Self {
    AlertState {
      TextState("Delete category '\(row.category.name)'?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(row.id)) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Keep") }
    } message: {
      switch row.linkCount {
      case 1: TextState("Its link stays, uncategorized.")
      default: TextState("Its \(row.linkCount) links stay, uncategorized.")
      }
    }
  }
}
