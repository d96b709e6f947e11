import Foundation
import Loop

/// A journal whose entries get their id and date from dependencies, and whose count an effect
/// sends back multiplied by `countScale` (which a test changes on purpose): the small feature
/// the recording and replay tests record.
public struct Journal: Reducer {
  /// The entries and the last count.
  public struct State: Equatable, Sendable {
    public var entries: [Entry] = []
    public var count = 0

    /// Creates the state.
    public init(entries: [Entry] = [], count: Int = 0) {
      self.entries = entries
      self.count = count
    }
  }

  /// One entry, stamped with a drawn id and date.
  public struct Entry: Equatable, Identifiable, Sendable {
    public var id: UUID
    public var text: String
    public var createdAt: Date

    /// Creates an entry.
    public init(id: UUID, text: String, createdAt: Date) {
      self.id = id
      self.text = text
      self.createdAt = createdAt
    }
  }

  /// What happens in the journal.
  public enum Action: Equatable, Sendable {
    case added(String)
    case countTapped
    case counted(Int)
  }

  /// What the count effect multiplies the number of entries by.
  public var countScale: Int

  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid

  /// Creates the reducer.
  public init(countScale: Int = 1) {
    self.countScale = countScale
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .added(let text):
      state.entries.append(Entry(id: uuid(), text: text, createdAt: date.now))
      return .none
    case .countTapped:
      let count = state.entries.count * countScale
      return .run { send in await send(.counted(count)) }
    case .counted(let count):
      state.count = count
      return .none
    }
  }
}
