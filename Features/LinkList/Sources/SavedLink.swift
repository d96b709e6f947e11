import LinkClient

/// A link as an add or an update in one step stored it, with how many leading hexadecimal
/// digits of its id name it alone among the stored links (what a text interface shows as its
/// ref).
public struct SavedLink: Equatable, Sendable {
  /// The link as stored.
  public var link: Link
  /// How many leading hexadecimal digits of its id no other stored link's id starts with
  /// (``LinkClient/LinkClient/fetchIDPrefixLength``).
  public var idPrefixLength: Int

  /// Creates a saved link.
  public init(link: Link, idPrefixLength: Int) {
    self.link = link
    self.idPrefixLength = idPrefixLength
  }
}
