import LoopTesting

/// A small deterministic random number generator (SplitMix64).
///
/// A seed replays the same numbers on every run, so a randomized test is the same test each
/// time. It is LoopTesting's `SeededRandom`, which explorations draw from, under the name these
/// tests know.
public typealias SplitMix64 = SeededRandom
