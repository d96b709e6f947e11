// A test imports LoopTesting and gets the core with it.
@_exported import Loop
