import Foundation
import Loop

// NB: `ModelID` itself is Loop's, so that a client's interface names its ids without importing
// Persistence; how it is stored is Persistence's.

extension ModelID: ColumnValue {
  /// ``ColumnComparability/ordering``: stored as the UUID's bytes, which sort as `<` does.
  public static var comparability: ColumnComparability { .ordering }
}
