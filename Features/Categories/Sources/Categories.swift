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
/// Errors from the client land in ``State/errorMessage`` and change nothing else.
public struct Categories: Reducer {
  /// The screen's state.
  public struct State: Equatable, Sendable {
    /// The categories with their link counts, by name ignoring case.
    public var rows: IdentifiedArrayOf<CategorySummary>
    /// The selected category, or `nil` for all links.
    public var selectedCategoryID: Category.ID?
    /// The last failure, as a sentence for the user; `nil` after a success.
    public var errorMessage: String?

    /// Creates the state.
    public init(
      rows: IdentifiedArrayOf<CategorySummary> = [], selectedCategoryID: Category.ID? = nil,
      errorMessage: String? = nil
    ) {
      self.rows = rows
      self.selectedCategoryID = selectedCategoryID
      self.errorMessage = errorMessage
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
    /// The user asked to delete a category (its links stay, uncategorized).
    case deleteSubmitted(Category.ID)
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
        state.errorMessage = nil
        let categoryClient = self.categoryClient
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

      case .deleteSubmitted(let id):
        state.errorMessage = nil
        let categoryClient = self.categoryClient
        return .run { send in
          await send(
            .deleteResponse(Result { try await categoryClient.deleteCategory(id) }.map { id }))
        }

      case .deleteResponse(.success(let id)):
        if state.selectedCategoryID == id { state.selectedCategoryID = nil }
        return .concatenate(load(), .send(.delegate(.removeCategory(id))))

      case .onAppear:
        return load()

      case .renameSubmitted(let id, let name):
        state.errorMessage = nil
        let categoryClient = self.categoryClient
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
        state.errorMessage = error.description
        return .none
      }
    }
  }

  private func load() -> Effect<Action> {
    let categoryClient = self.categoryClient
    return .run { send in
      await send(
        .summariesResponse(Result { try await categoryClient.fetchCategorySummaries() }))
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }
}
