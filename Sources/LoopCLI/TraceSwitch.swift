import Synchronization

/// Whether `:trace` is on: read by the printing reducer for every action.
final class TraceSwitch: Sendable {
  private let flag = Atomic<Bool>(false)

  var isOn: Bool {
    get { flag.load(ordering: .relaxed) }
    set { flag.store(newValue, ordering: .relaxed) }
  }
}
