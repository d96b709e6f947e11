import Foundation
import HabitClient
import Loop

/// The habit tracker: the list of habits with today's progress, creating, renaming, archiving,
/// completing and deleting them (after a confirmation), and one habit's detail.
///
/// Each user action is one command of the `loop` REPL:
///
/// - `list`: ``Action/onAppear``
/// - `add NAME`: ``Action/addHabitSubmitted(name:)``
/// - `rename HABIT NAME`: ``Action/renameSubmitted(_:name:)``
/// - `archive HABIT`, `unarchive HABIT`: ``Action/archiveButtonTapped(_:)``,
///   ``Action/unarchiveButtonTapped(_:)``
/// - `done HABIT [--on DAY]`, `undo HABIT [--on DAY]`: ``Action/completeButtonTapped(_:day:)``,
///   ``Action/uncompleteButtonTapped(_:day:)`` (a `nil` day is today)
/// - `show HABIT`: ``Action/habitTapped(_:)``, which presents the habit's ``HabitDetail``; its
///   `--weeks N`: `.destination(.presented(.detail(.weekCountChanged(N))))`
/// - `rm HABIT`: ``Action/deleteButtonTapped(_:)``, which presents a ``DeletionConfirmation``,
///   then `.destination(.presented(.deletion(.confirmTapped)))` (the user's yes, or `--yes`) or
///   `.destination(.dismiss)`
///
/// The detail and the confirmation are the list's ``Destination``s: one at a time, closed with
/// `.destination(.dismiss)`.
///
/// Storage is reached only through ``HabitClient``; its errors land in ``State/errorMessage`` as
/// a sentence to show. Every user action first clears the last error and notes today (in the
/// user's time zone), so that "today" follows the clock and the user's travels.
public struct Habits: Reducer {
  /// The list's state.
  public struct State: Equatable, Sendable {
    /// What the list presents: a habit's detail, or a deletion to confirm; `nil` for neither.
    @Presents public var destination: Destination.State?

    /// The last failure, as a sentence to show; `nil` when the last action succeeded.
    public var errorMessage: String?

    /// The habits with their completed days, in list order: active first, then archived; by
    /// creation date within each (``Habit/isListed(_:before:)``).
    public var habits: IdentifiedArrayOf<HabitHistory>

    /// Today in the user's time zone, as of the last user action; `nil` before the first.
    public var today: Day?

    /// Creates the state.
    public init(
      habits: IdentifiedArrayOf<HabitHistory> = [], today: Day? = nil,
      destination: Destination.State? = nil, errorMessage: String? = nil
    ) {
      self.habits = habits
      self.today = today
      self.destination = destination
      self.errorMessage = errorMessage
    }

    /// Every error message shown: the list's own, then the presented detail's.
    public var errorMessages: [String] {
      [errorMessage, destination?.detail?.errorMessage].compactMap { $0 }
    }

    /// Clears every message of ``errorMessages``: the user saw them.
    public mutating func dismissErrors() {
      errorMessage = nil
      destination?.detail?.errorMessage = nil
    }
  }

  /// What the list presents over itself, one at a time: a habit's detail, or the question
  /// before deleting one.
  ///
  /// ```swift
  /// store.send(.habitTapped(id))  // state.destination == .detail(…)
  /// store.send(.destination(.presented(.detail(.weekCountChanged(8)))))
  /// store.send(.destination(.dismiss))  // state.destination == nil
  /// ```
  public struct Destination: Reducer {
    /// The presented child.
    public enum State: Equatable, Sendable {
      /// A deletion waiting for the user's answer.
      case deletion(DeletionConfirmation)
      /// A habit's detail.
      case detail(HabitDetail.State)

      /// The deletion to confirm, when that is what is presented.
      ///
      /// Setting it changes the confirmation presented; it does not present one instead of the
      /// detail.
      public var deletion: DeletionConfirmation? {
        get {
          guard case .deletion(let confirmation) = self else { return nil }
          return confirmation
        }
        set {
          guard case .deletion = self, let newValue else { return }
          self = .deletion(newValue)
        }
      }

      /// The detail, when that is what is presented.
      ///
      /// Setting it changes the detail presented; it does not present one instead of the
      /// confirmation.
      public var detail: HabitDetail.State? {
        get {
          guard case .detail(let detail) = self else { return nil }
          return detail
        }
        set {
          guard case .detail = self, let newValue else { return }
          self = .detail(newValue)
        }
      }
    }

    /// The presented child's actions.
    public enum Action: Equatable, Sendable {
      /// The confirmation's answer.
      case deletion(DeletionConfirmation.Action)
      /// The detail's action.
      case detail(HabitDetail.Action)
    }

    /// Creates the reducer.
    public init() {}

    /// Each child on its case.
    public var body: some ReducerOf<Self> {
      Scope(state: .case(State.deletion), action: .case(Action.deletion)) { EmptyReducer() }
      Scope(state: .case(State.detail), action: .case(Action.detail)) { HabitDetail() }
    }
  }

  /// A deletion the user must confirm: deleting a habit also deletes its history.
  ///
  /// The list presents it (``Destination/State/deletion(_:)``); the user's yes is
  /// ``Action/confirmTapped``, a no closes it (`.destination(.dismiss)`).
  public struct DeletionConfirmation: Equatable, Sendable {
    /// The user's answer.
    public enum Action: Equatable, Sendable {
      /// The user confirmed the deletion.
      case confirmTapped
    }

    /// The habit to delete.
    public var habitID: Habit.ID

    /// Its name.
    public var name: String

    /// How many completions would be deleted with it.
    public var completionCount: Int

    /// Creates a confirmation.
    public init(habitID: Habit.ID, name: String, completionCount: Int) {
      self.habitID = habitID
      self.name = name
      self.completionCount = completionCount
    }

    /// The question to ask the user before deleting.
    ///
    /// For example: "Delete 'Read' and its 3 completions? This cannot be undone."
    public var message: String {
      switch completionCount {
      case 0: return "Delete '\(name)'? This cannot be undone."
      case 1: return "Delete '\(name)' and its 1 completion? This cannot be undone."
      default:
        return "Delete '\(name)' and its \(completionCount) completions? This cannot be undone."
      }
    }
  }

  /// What happens in the list.
  public enum Action: Equatable, Sendable {
    /// The user submitted a new habit's name.
    case addHabitSubmitted(name: String)
    /// The user asked to archive a habit.
    case archiveButtonTapped(Habit.ID)
    /// The user marked a habit done on a day; `nil` is today.
    case completeButtonTapped(Habit.ID, day: Day?)
    /// The client recorded a completion, or failed to.
    case completeResponse(Result<Completion, HabitError>)
    /// The client created a habit, or failed to.
    case createResponse(Result<Habit, HabitError>)
    /// The user asked to delete a habit: the deletion waits for a confirmation.
    case deleteButtonTapped(Habit.ID)
    /// The client deleted a habit and its completions, or failed to.
    case deleteResponse(Result<Habit, HabitError>)
    /// The presented detail's or confirmation's action, or its closing (closing the
    /// confirmation keeps the habit).
    case destination(PresentationAction<Destination.Action>)
    /// The user opened a habit's detail.
    case habitTapped(Habit.ID)
    /// The client loaded the habits, or failed to.
    case habitsResponse(Result<[HabitHistory], HabitError>)
    /// The list appeared: the habits are loaded.
    case onAppear
    /// The user submitted a new name for a habit.
    case renameSubmitted(Habit.ID, name: String)
    /// The user asked to make an archived habit active again.
    case unarchiveButtonTapped(Habit.ID)
    /// The user took back a habit's completion on a day; `nil` is today.
    case uncompleteButtonTapped(Habit.ID, day: Day?)
    /// The client removed a completion, or failed to.
    case uncompleteResponse(Result<Completion, HabitError>)
    /// The client renamed, archived or unarchived a habit, or failed to.
    case updateResponse(Result<Habit, HabitError>)
  }

  @Dependency(\.calendar) var calendar
  @Dependency(\.date) var date
  @Dependency(\.habitClient) var habitClient
  @Dependency(\.timeZone) var timeZone

  /// Creates the reducer.
  public init() {}

  /// The list's logic, with the detail's beside it.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      let effect = update(&state, action)
      syncDetail(&state)
      return effect
    }
    .ifLet(\.$destination, action: .case(Action.destination)) { Destination() }
  }

  // MARK: - Logic

  private func update(_ state: inout State, _ action: Action) -> Effect<Action> {
    let habitClient = self.habitClient
    switch action {
    case .addHabitSubmitted(let name):
      begin(&state)
      return .run { send in
        await send(.createResponse(await Result { try await habitClient.addHabit(name) }))
      }

    case .archiveButtonTapped(let id):
      begin(&state)
      return .run { send in
        await send(.updateResponse(await Result { try await habitClient.archiveHabit(id) }))
      }

    case .completeButtonTapped(let id, let day):
      let today = begin(&state)
      return .run { send in
        await send(
          .completeResponse(await Result { try await habitClient.addCompletion(id, day ?? today) }))
      }

    case .completeResponse(.success(let completion)):
      state.habits.modify(id: completion.habitID) { $0.insert(completion.day) }
      return .none

    case .createResponse(.success(let habit)):
      // NB: the list is in list order already, so the new habit goes to its place without
      // sorting every habit again (what adding 10,000 habits in a script would cost).
      state.habits.insert(HabitHistory(habit: habit), at: listIndex(of: habit, in: state.habits))
      return .none

    case .deleteButtonTapped(let id):
      begin(&state)
      guard let history = state.habits[id: id] else {
        state.errorMessage = HabitError.habitNotFound(id).description
        return .none
      }
      state.destination = .deletion(
        DeletionConfirmation(
          habitID: id, name: history.habit.name, completionCount: history.days.count))
      return .none

    case .deleteResponse(.success(let habit)):
      state.habits.remove(id: habit.id)
      return .none

    case .destination(.presented(.deletion(.confirmTapped))):
      begin(&state)
      guard let confirmation = state.destination?.deletion else { return .none }
      state.destination = nil
      return .run { send in
        await send(
          .deleteResponse(await Result { try await habitClient.deleteHabit(confirmation.habitID) }))
      }

    case .destination(.dismiss):
      // NB: closing the detail or keeping the habit is a user action too; `ifLet` then closes.
      begin(&state)
      return .none

    case .destination:
      return .none

    case .habitTapped(let id):
      let today = begin(&state)
      guard let history = state.habits[id: id] else {
        state.errorMessage = HabitError.habitNotFound(id).description
        return .none
      }
      state.destination = .detail(
        HabitDetail.State(
          history: history, createdOn: Day(history.habit.createdAt, in: timeZone), today: today,
          firstWeekday: calendar.firstWeekday))
      return .none

    case .habitsResponse(.success(let histories)):
      state.habits = IdentifiedArray(uniqueElements: histories)
      return .none

    case .onAppear:
      begin(&state)
      return .run { send in
        await send(.habitsResponse(await Result { try await habitClient.fetchHistories() }))
      }

    case .renameSubmitted(let id, let name):
      begin(&state)
      return .run { send in
        await send(.updateResponse(await Result { try await habitClient.updateHabit(id, name) }))
      }

    case .unarchiveButtonTapped(let id):
      begin(&state)
      return .run { send in
        await send(.updateResponse(await Result { try await habitClient.unarchiveHabit(id) }))
      }

    case .uncompleteButtonTapped(let id, let day):
      let today = begin(&state)
      return .run { send in
        await send(
          .uncompleteResponse(
            await Result { try await habitClient.deleteCompletion(id, day ?? today) }))
      }

    case .uncompleteResponse(.success(let completion)):
      state.habits.modify(id: completion.habitID) { $0.remove(completion.day) }
      return .none

    case .updateResponse(.success(let habit)):
      state.habits.modify(id: habit.id) { $0.habit = habit }
      state.habits.sort { Habit.isListed($0.habit, before: $1.habit) }
      return .none

    case .completeResponse(.failure(let error)), .createResponse(.failure(let error)),
      .deleteResponse(.failure(let error)), .habitsResponse(.failure(let error)),
      .uncompleteResponse(.failure(let error)), .updateResponse(.failure(let error)):
      state.errorMessage = error.description
      return .none
    }
  }

  /// Starts a user action: clears the last error and notes today.
  ///
  /// - Returns: Today, in the user's time zone.
  @discardableResult
  private func begin(_ state: inout State) -> Day {
    let today = Day(date.now, in: timeZone)
    state.errorMessage = nil
    state.today = today
    return today
  }

  /// Where `habit` goes in `habits` (in list order): after every habit listed before it.
  ///
  /// - Complexity: O(log *n*).
  private func listIndex(of habit: Habit, in habits: IdentifiedArrayOf<HabitHistory>) -> Int {
    var low = 0
    var high = habits.count
    while low < high {
      let middle = (low + high) / 2
      if Habit.isListed(habits[middle].habit, before: habit) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// Keeps the open detail showing the list's copy of its habit and today; closes it when its
  /// habit is gone.
  private func syncDetail(_ state: inout State) {
    guard var detail = state.destination?.detail else { return }
    guard let history = state.habits[id: detail.history.id] else {
      state.destination = nil
      return
    }
    detail.history = history
    detail.createdOn = Day(history.habit.createdAt, in: timeZone)
    if let today = state.today { detail.today = today }
    state.destination = .detail(detail)
  }
}
