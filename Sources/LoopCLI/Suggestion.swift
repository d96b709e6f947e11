/// "Did you mean …?": the known word closest to a mistyped one.
enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be what the
  /// user meant: at most one edit for short words, two for words of five characters or more.
  ///
  /// A word other tools use for a candidate (`delete` for `rm`, `ls` for `list`) names it too.
  ///
  /// Ties go to the earlier candidate, so the order of `candidates` decides.
  ///
  /// - Parameters:
  ///   - word: What the user typed.
  ///   - candidates: The words they may have meant.
  /// - Returns: The closest candidate, or `nil` when none is close.
  static func closest(to word: String, among candidates: [String]) -> String? {
    if let meant = candidates.first(where: { synonyms[$0]?.contains(word.lowercased()) == true }) {
      return meant
    }
    let limit = word.count >= 5 ? 2 : 1
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(word.lowercased(), candidate.lowercased())
      if distance <= limit, distance < best?.distance ?? .max {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  /// Words other command-line tools use for Loop's verbs, by verb.
  ///
  /// NB: only ever suggested, never run: a guess must not delete anything.
  static let synonyms: [String: Set<String>] = [
    "add": ["new", "create", "insert", "append"],
    "list": ["ls", "all", "index"],
    "rm": ["delete", "del", "remove", "erase"],
    "update": ["edit", "change", "modify", "set"],
    "show": ["view", "get", "info", "details"],
    "search": ["find", "grep", "query"],
    "fav": ["favorite", "favourite", "star"],
    "unfav": ["unfavorite", "unfavourite", "unstar"],
    "exit": ["quit", "q", "bye"],
  ]

  /// The number of insertions, deletions, substitutions and swaps of neighbours that turn `a`
  /// into `b` (optimal string alignment distance).
  ///
  /// - Complexity: O(*m* × *n*).
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
  }
}
