import DraftEditor
import LinkClient

/// The editor of a link: a draft the user fills in, to be saved as a new link or over an
/// existing one (``LinkEditing``'s ``DraftEditor``).
///
/// ```swift
/// store.send(.binding(.set(\.draft.title, "Swift")))
/// store.send(.saveSubmitted)  // asks LinkList to save: .delegate(.save(.add, draft))
/// ```
///
/// The draft is handed to the parent as typed: the client checks it (blank title, invalid
/// address, missing category), and the parent shows the client's error in the editor.
public typealias LinkEditor = DraftEditor<LinkEditing>

/// What ``LinkEditor`` edits: a ``LinkClient/LinkDraft``, saved over a link by its id.
public enum LinkEditing: Editing {
  /// A link's id: the draft updates that link.
  public typealias ID = Link.ID

  /// The draft as typed: the client checks a link's draft when it saves it.
  public static func check(_ draft: LinkDraft) throws(LinkError) -> LinkDraft { draft }
}
