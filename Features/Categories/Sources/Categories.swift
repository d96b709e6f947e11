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
    /// Tells the parent what it must react to.
    case delegate(Delegate)
    /// The client answered a delete.
    case deleteResponse(Result<Category.ID, LinkError>)
    /// The user asked to delete a category (its links stay, uncategorized).
    case deleteTapped(Category.ID)
    /// The screen needs its list (it appeared, or the user asked to refresh).
    case loadRequested
    /// The client answered a rename.
    case renameResponse(Result<Category, LinkError>)
    /// The user submitted a new name for a category.
    case renameSubmitted(Category.ID, name: String)
    /// The client answered a load.
    case summariesResponse(Result<[CategorySummary], LinkError>)

    /// What the parent must react to.
    public enum Delegate: Equatable, Sendable {
      /// The user selected a category (`nil`: all links): filter the links by it.
      case categorySelected(Category.ID?)
      /// A category was renamed: lists showing its name are stale.
      case categoryRenamed(Category)
      /// A category was deleted: its links are uncategorized, and a filter on it is void.
      case categoryDeleted(Category.ID)
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
        return .send(.delegate(.categorySelected(id)))

      case .delegate:
        return .none

      case .deleteTapped(let id):
        state.errorMessage = nil
        let categoryClient = self.categoryClient
        return .run { send in
          await send(
            .deleteResponse(Result { try await categoryClient.deleteCategory(id) }.map { id }))
        }

      case .deleteResponse(.success(let id)):
        if state.selectedCategoryID == id { state.selectedCategoryID = nil }
        return .concatenate(load(), .send(.delegate(.categoryDeleted(id))))

      case .loadRequested:
        return load()

      case .renameSubmitted(let id, let name):
        state.errorMessage = nil
        let categoryClient = self.categoryClient
        return .run { send in
          await send(
            .renameResponse(Result { try await categoryClient.updateCategory(id, name) }))
        }

      case .renameResponse(.success(let category)):
        return .concatenate(load(), .send(.delegate(.categoryRenamed(category))))

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
