import LinkClient
import Loop

/// What every row of links shows, whatever the screen: the link's id, its title and whether it
/// is a favorite.
///
/// Each screen has its own row value with something extra (the category's name, the matched
/// part of the title, when it was last viewed) and adopts this protocol, so one ``LinkRow``
/// serves them all.
public protocol LinkRowItem: Identifiable, Equatable, Sendable where ID == Link.ID {
  /// The link's title.
  var title: String { get }
  /// Whether the link is a favorite.
  var isFavorite: Bool { get }
}

/// One row of links, shared by every screen that lists links: generic over the screen's row
/// value, it decides when something happens and leaves what happens to the screen.
///
/// The row has no client. Opening the link and toggling its favorite become ``Action/delegate(_:)``
/// actions, which every hosting screen performs the same way, through one reducer (`LinkRows`):
/// the favorite is saved through the client, then kept in the links shared by every screen
/// (``LoadedLink``), so every row of the link shows it.
public struct LinkRow<Item: LinkRowItem>: Reducer {
  /// The row's state is the screen's row value.
  public typealias State = Item

  /// What happens on a row.
  public enum Action: Equatable, Sendable {
    /// The user toggled the row's favorite.
    case favoriteSubmitted
    /// The user selected the row to open its link.
    case selected
    /// Asks the hosting screen to act.
    case delegate(Delegate)

    /// What the row asks the hosting screen to do.
    public enum Delegate: Equatable, Sendable {
      /// Open the row's link.
      case open
      /// Mark the row's link as a favorite, or not.
      case setFavorite(Bool)
    }
  }

  /// Creates the reducer.
  public init() {}

  /// Turns what the user did into requests to the hosting screen; the row itself changes
  /// nothing.
  ///
  /// - Parameters:
  ///   - state: The row.
  ///   - action: The action.
  /// - Returns: The delegate action to send.
  public func reduce(into state: inout Item, action: Action) -> Effect<Action> {
    switch action {
    case .favoriteSubmitted:
      return .send(.delegate(.setFavorite(!state.isFavorite)))
    case .selected:
      return .send(.delegate(.open))
    case .delegate:
      return .none
    }
  }
}
