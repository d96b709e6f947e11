/// An enum whose cases are read and changed in place through a ``CasePath``: Loop's counterpart
/// of swift-case-paths' `CasePathable`, without the macro.
///
/// A destination enum adopts it so that each of its case accessors is two lines, and tests and
/// parents read `state.destination?.detail` as they would in TCA:
///
/// ```swift
/// enum State: Equatable, CasePathable {
///   case alert(AlertState<Alert>)
///   case detail(Detail.State)
///
///   var detail: Detail.State? {
///     get { self[case: .case(State.detail)] }
///     set { self[case: .case(State.detail)] = newValue }
///   }
/// }
/// ```
public protocol CasePathable {}

extension CasePathable {
  /// The payload when the value is the case `casePath`, else `nil`.
  ///
  /// Setting changes the payload in place when the value already is that case. Setting it while
  /// the value is another case, or setting `nil`, changes nothing: an accessor never turns one
  /// case into another, so `state.destination?.detail?.title = …` cannot present a detail in
  /// place of an alert. Present a case by assigning it (`state.destination = .detail(…)`).
  public subscript<Value>(case casePath: CasePath<Self, Value>) -> Value? {
    get { casePath.extract(self) }
    set {
      guard let newValue, casePath.extract(self) != nil else { return }
      self = casePath.embed(newValue)
    }
  }
}
