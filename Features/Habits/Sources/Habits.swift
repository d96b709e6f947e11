import Foundation
import HabitClient
import Loop

/// The habit tracker: the list of habits with today's progress, creating, renaming, archiving,
/// completing and deleting them (after a confirmation), and one habit's detail.
///
/// Each user action is one command of the `loop` REPL:
///
/// - `list`: ``Action/onAppear``
/// - `add NAME`: ``Action/addSubmitted(name:)``
/// - `rename HABIT NAME`: ``Action/renameSubmitted(_:name:)``
/// - `archive HABIT`, `unarchive HABIT`: ``Action/archiveSubmitted(_:)``,
///   ``Action/unarchiveSubmitted(_:)``
/// - `done HABIT [--on DAY]`, `undo HABIT [--on DAY]`: ``Action/completeSubmitted(_:day:)``,
///   ``Action/uncompleteSubmitted(_:day:)`` (a `nil` day is today)
/// - `show HABIT`: ``Action/habitSelected(_:)``, which presents the habit's ``HabitDetail``; its
///   `--weeks N`: `.destination(.presented(.detail(.weekCountChanged(N))))`
/// - `rm HABIT`: ``Action/deleteSubmitted(_:)``, which presents an alert asking first
///   (``Destination/State/alert(_:)``), then its answer
///   `.destination(.presented(.alert(.confirmDeletion(id))))` (the user's yes, or `--yes`) or
///   `.destination(.dismiss)`
///
/// The detail and the alert are the list's ``Destination``s: one at a time, closed with
/// `.destination(.dismiss)`; the alert closes on its answer too.
///
/// The habits are a shared value (``State/habits``), and the detail reads its habit through it
/// (`Shared(state.$habits[id: id])`): a change to the list is the detail's change too, with no
/// copy to keep in step. The detail closes when its habit leaves the list.
///
/// Storage is reached only through ``HabitClient``; a failure it reports is presented as an
/// alert (``Destination/State/alert(_:)``, made by `AlertState.failure(_:)`) in place of what
/// was presented. Every user action first notes today (in the user's time zone), so that
/// "today" follows the clock and the user's travels.
public struct Habits: Reducer, Sendable {
  /// The list's state.
  public struct State: Equatable, Sendable {
    /// What the list presents: a habit's detail, the question before a deletion, or a failure;
    /// `nil` for none.
    @Presents public var destination: Destination.State?

    /// The habits with their completed days, in list order: active first, then archived; by
    /// creation date within each (``Habit/isListed(_:before:)``).
    ///
    /// Shared with the detail, which reads its habit from it; change it with `withLock`
    /// (`state.$habits.withLock { … }`).
    @Shared public var habits: IdentifiedArrayOf<HabitHistory>

    /// Today in the user's time zone, as of the last user action; `nil` before the first.
    public var today: Day?

    /// Creates the state.
    public init(
      habits: IdentifiedArrayOf<HabitHistory> = [], today: Day? = nil,
      destination: Destination.State? = nil
    ) {
      self._habits = Shared(value: habits)
      self.today = today
      self.destination = destination
    }
  }

  /// What the list presents over itself, one at a time: a habit's detail, the question before
  /// deleting one, or a failure of the client.
  ///
  /// ```swift
  /// store.send(.habitSelected(id))  // state.destination == .detail(…)
  /// store.send(.destination(.presented(.detail(.weekCountChanged(8)))))
  /// store.send(.destination(.dismiss))  // state.destination == nil
  /// ```
  public struct Destination: Reducer {
    /// The presented child.
    public enum State: Equatable, Sendable, CasePathable {
      /// A question waiting for the user's answer (``Alert``), a deletion to confirm; or a
      /// failure of the client, which asks nothing.
      case alert(AlertState<Alert>)
      /// A habit's detail.
      case detail(HabitDetail.State)

      /// The question asked, when that is what is presented; set, it changes in place.
      public var alert: AlertState<Alert>? {
        get { self[case: .case(State.alert)] }
        set { self[case: .case(State.alert)] = newValue }
      }

      /// The detail, when that is what is presented; set, it changes in place.
      public var detail: HabitDetail.State? {
        get { self[case: .case(State.detail)] }
        set { self[case: .case(State.detail)] = newValue }
      }
    }

    /// The presented child's actions.
    public enum Action: Equatable, Sendable {
      /// The alert's answer; the alert then closes.
      case alert(Alert)
      /// The detail's action.
      case detail(HabitDetail.Action)
    }

    /// The answers to the list's alerts.
    public enum Alert: Equatable, Sendable {
      /// The user confirmed deleting the habit and its history.
      case confirmDeletion(Habit.ID)
    }

    /// Creates the reducer.
    public init() {}

    /// Each child on its case.
    public var body: some ReducerOf<Self> {
      Scope(state: .case(State.alert), action: .case(Action.alert)) { EmptyReducer() }
      Scope(state: .case(State.detail), action: .case(Action.detail)) { HabitDetail() }
    }
  }

  /// What happens in the list.
  public enum Action: Equatable, Sendable {
    /// The client created a habit, or failed to.
    case addResponse(Result<Habit, HabitError>)
    /// The user submitted a new habit's name.
    case addSubmitted(name: String)
    /// The user asked to archive a habit.
    case archiveSubmitted(Habit.ID)
    /// The client recorded a completion, or failed to.
    case completeResponse(Result<Completion, HabitError>)
    /// The user marked a habit done on a day; `nil` is today.
    case completeSubmitted(Habit.ID, day: Day?)
    /// The client deleted a habit and its completions, or failed to.
    case deleteResponse(Result<Habit, HabitError>)
    /// The user asked to delete a habit: the deletion waits for a confirmation.
    case deleteSubmitted(Habit.ID)
    /// The presented detail's action or the alert's answer, or its closing (closing the alert
    /// keeps the habit).
    case destination(PresentationAction<Destination.Action>)
    /// The user opened a habit's detail.
    case habitSelected(Habit.ID)
    /// The client loaded the habits, or failed to.
    case habitsResponse(Result<[HabitHistory], HabitError>)
    /// The list appeared: the habits are loaded.
    case onAppear
    /// The user submitted a new name for a habit.
    case renameSubmitted(Habit.ID, name: String)
    /// The user asked to make an archived habit active again.
    case unarchiveSubmitted(Habit.ID)
    /// The client removed a completion, or failed to.
    case uncompleteResponse(Result<Completion, HabitError>)
    /// The user took back a habit's completion on a day; `nil` is today.
    case uncompleteSubmitted(Habit.ID, day: Day?)
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
      update(&state, action)
    }
    .ifLet(\.$destination, action: .case(Action.destination)) { Destination() }
  }

  // MARK: - Logic

  private func update(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .addSubmitted(let name):
      begin(&state)
      return .run { send in
        await send(.addResponse(await Result { try await habitClient.addHabit(name) }))
      }

    case .archiveSubmitted(let id):
      begin(&state)
      return .run { send in
        await send(.updateResponse(await Result { try await habitClient.archiveHabit(id) }))
      }

    case .completeSubmitted(let id, let day):
      let today = begin(&state)
      return .run { send in
        await send(
          .completeResponse(await Result { try await habitClient.addCompletion(id, day ?? today) }))
      }

    case .completeResponse(.success(let completion)):
      state.$habits.withLock { $0.modify(id: completion.habitID) { $0.insert(completion.day) } }
      return .none

    case .addResponse(.success(let habit)):
      // NB: the list is in list order already, so the new habit goes to its place without
      // sorting every habit again (what adding 10,000 habits in a script would cost).
      state.$habits.withLock {
        _ = $0.insert(HabitHistory(habit: habit), at: listIndex(of: habit, in: $0))
      }
      return .none

    case .deleteSubmitted(let id):
      begin(&state)
      guard let history = state.habits[id: id] else {
        state.destination = .alert(.failure(HabitError.habitNotFound(id)))
        return .none
      }
      state.destination = .alert(
        .deletion(of: history.habit, completionCount: history.days.count))
      return .none

    case .deleteResponse(.success(let habit)):
      state.$habits.withLock { _ = $0.remove(id: habit.id) }
      dismissDetailOfRemovedHabit(&state)
      return .none

    case .destination(.presented(.alert(.confirmDeletion(let id)))):
      begin(&state)
      // NB: an answer with no question asked (reported by `ifLet`) deletes nothing.
      guard state.destination?.alert != nil else { return .none }
      return .run { send in
        await send(.deleteResponse(await Result { try await habitClient.deleteHabit(id) }))
      }

    case .destination(.dismiss):
      // NB: closing the detail or keeping the habit is a user action too; `ifLet` then closes.
      begin(&state)
      return .none

    case .destination:
      return .none

    case .habitSelected(let id):
      let today = begin(&state)
      guard let history = Shared(state.$habits[id: id]) else {
        state.destination = .alert(.failure(HabitError.habitNotFound(id)))
        return .none
      }
      state.destination = .detail(
        HabitDetail.State(
          history: history, createdOn: Day(history.wrappedValue.habit.createdAt, in: timeZone),
          today: today, firstWeekday: calendar.firstWeekday))
      return .none

    case .habitsResponse(.success(let histories)):
      state.$habits.withLock { $0 = IdentifiedArray(uniqueElements: histories) }
      dismissDetailOfRemovedHabit(&state)
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

    case .unarchiveSubmitted(let id):
      begin(&state)
      return .run { send in
        await send(.updateResponse(await Result { try await habitClient.unarchiveHabit(id) }))
      }

    case .uncompleteSubmitted(let id, let day):
      let today = begin(&state)
      return .run { send in
        await send(
          .uncompleteResponse(
            await Result { try await habitClient.deleteCompletion(id, day ?? today) }))
      }

    case .uncompleteResponse(.success(let completion)):
      state.$habits.withLock { $0.modify(id: completion.habitID) { $0.remove(completion.day) } }
      return .none

    case .updateResponse(.success(let habit)):
      state.$habits.withLock { habits in
        habits.modify(id: habit.id) { $0.habit = habit }
        habits.sort { Habit.isListed($0.habit, before: $1.habit) }
      }
      return .none

    case .completeResponse(.failure(let error)), .addResponse(.failure(let error)),
      .deleteResponse(.failure(let error)), .habitsResponse(.failure(let error)),
      .uncompleteResponse(.failure(let error)), .updateResponse(.failure(let error)):
      state.destination = .alert(.failure(error))
      return .none
    }
  }

  /// Starts a user action: notes today, for the list and for the detail it presents (with the
  /// detail's creation day, which moves with the user's time zone too).
  ///
  /// - Returns: Today, in the user's time zone.
  @discardableResult
  private func begin(_ state: inout State) -> Day {
    let today = Day(date.now, in: timeZone)
    state.today = today
    if var detail = state.destination?.detail {
      detail.today = today
      detail.createdOn = Day(detail.history.habit.createdAt, in: timeZone)
      state.destination?.detail = detail
    }
    return today
  }

  /// Closes the detail when its habit is no longer listed (deleted, or gone from a reload).
  private func dismissDetailOfRemovedHabit(_ state: inout State) {
    guard let id = state.destination?.detail?.history.id, state.habits[id: id] == nil else {
      return
    }
    state.destination = nil
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
}
extension AlertState where Action == Habits.Destination.Alert {
  /// The question asked before deleting `habit` with its `completionCount` completions.
  ///
  /// For example: "Delete 'Read' and its 3 completions?", then "This cannot be undone.", with a
  /// destructive "Delete" that answers ``Habits/Destination/Alert/confirmDeletion(_:)`` and a
  /// "Keep" that cancels.
  ///
  /// - Parameters:
  ///   - habit: The habit to delete.
  ///   - completionCount: How many completions would be deleted with it.
  /// - Returns: The alert.
  public static func deletion(of habit: Habit, completionCount: Int) -> Self {
    AlertState {
      switch completionCount {
      case 0: TextState("Delete '\(habit.name)'?")
      case 1: TextState("Delete '\(habit.name)' and its 1 completion?")
      default: TextState("Delete '\(habit.name)' and its \(completionCount) completions?")
      }
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(habit.id)) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Keep") }
    } message: {
      TextState("This cannot be undone.")
    }
  }
}
