import LinkClient
import Loop

/// What a text interface asks of the links and no screen shows: which links a short id (a
/// "ref") or a word of a title names, how many digits a ref needs, and a link with its comments shown without
/// recording a view.
///
/// ```swift
/// await store.send(.lookup(.refSubmitted("1f3a"))).finish()
/// store.state.lookup.refMatches  // the links whose id starts with "1f3a", at most 10
/// ```
///
/// Nothing is loaded until asked: a database with 100,000 links answers a ref without reading
/// them all. A loaded preview goes to the parent (``Action/Delegate/showPreview(_:)``), which
/// shows it as the opened link. A failure is the typed failure of the response that answers
/// the request (`.refResponse(.failure(error))`), where the interface that asked reads it: no
/// screen shows a lookup, so the state keeps none.
public struct LinkLookup: Reducer, Sendable {
  /// The lookups' state.
  public struct State: Equatable, Sendable {
    /// The links whose id starts with the last ref looked up, by id (at most
    /// ``LinkLookup/refMatchLimit``); empty before any lookup.
    public var refMatches: [Link]

    /// Creates the state.
    public init(refMatches: [Link] = []) {
      self.refMatches = refMatches
    }
  }

  /// The most links a ref lookup returns: enough to list the candidates of an ambiguous ref.
  public static let refMatchLimit = 10

  /// What happens in a lookup.
  public enum Action: Equatable, Sendable {
    /// The lookup's requests to its parent.
    case delegate(Delegate)
    /// The client answered a preview.
    case previewResponse(Result<LinkDetail.Content, LinkError>)
    /// The user asked to see a link and its comments without opening it (no view is
    /// recorded).
    case previewSubmitted(Link.ID)
    /// The interface is about to show refs: of this link, or (`nil`) of every link, as a
    /// listing does. The answer is for the interface, which asked: the state keeps nothing.
    case refLengthRequested(Link.ID?)
    /// The client answered how many leading digits of an id name the link alone (of every id,
    /// for every link).
    case refLengthResponse(Result<Int, LinkError>)
    /// The client answered a ref lookup.
    case refResponse(Result<[Link], LinkError>)
    /// The user named a link by the start of its id: find the links it may name.
    case refSubmitted(String)
    /// The client answered a title lookup. The answer is for the interface, which asked: the
    /// state keeps nothing.
    case titleResponse(Result<[Link], LinkError>)
    /// The user named a link by a word of its title: find the links whose title contains it
    /// (ignoring case), as ``LinkClient/LinkClient/searchLinks`` does.
    case titleSubmitted(String)

    /// What the lookup asks of its parent.
    public enum Delegate: Equatable, Sendable {
      /// Show a loaded preview as the opened link.
      case showPreview(LinkDetail.Content)
    }
  }

  @Dependency(\.linkClient) var linkClient

  /// Creates the reducer.
  public init() {}

  /// The lookups' logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .delegate:
        return .none

      case .previewSubmitted(let id):
        return .run { send in
          await send(
            .previewResponse(
              Result {
                LinkDetail.Content(
                  link: try await linkClient.fetchLink(id),
                  comments: try await linkClient.fetchComments(id))
              }))
        }

      case .previewResponse(.success(let content)):
        return .send(.delegate(.showPreview(content)))

      case .refSubmitted(let prefix):
        return .run { send in
          await send(
            .refResponse(
              Result { try await linkClient.fetchLinksWithIDPrefix(prefix, Self.refMatchLimit) }))
        }

      case .refResponse(.success(let links)):
        state.refMatches = links
        return .none

      case .refLengthRequested(let id):
        return .run { send in
          await send(
            .refLengthResponse(
              Result {
                if let id {
                  try await linkClient.fetchIDPrefixLength(id)
                } else {
                  try await linkClient.fetchIDPrefixLengthOfAll()
                }
              }))
        }

      case .refLengthResponse(.success):
        return .none

      case .titleSubmitted(let word):
        return .run { send in
          await send(.titleResponse(Result { try await linkClient.searchLinks(word) }))
        }

      case .titleResponse(.success):
        return .none

      case .previewResponse(.failure), .refResponse(.failure), .refLengthResponse(.failure),
        .titleResponse(.failure):
        // NB: the failure is for the interface, which asked: it reads it in the response.
        return .none
      }
    }
  }
}
