extension Session {
  /// Prints a listing: `json` as JSON in the ``OutputFormat/json`` format, otherwise the lines
  /// `text` makes.
  func printListing(
    _ format: OutputFormat, json: some Encodable,
    text: () async throws(CommandError) -> [String]
  ) async throws(CommandError) {
    if format == .json {
      try printJSON(json)
      return
    }
    for line in try await text() { console.print(line) }
  }

  /// Prints a value as JSON.
  func printJSON(_ value: some Encodable) throws(CommandError) {
    do {
      console.print(try JSONOutput.string(value))
    } catch {
      throw CommandError("the output could not be written as JSON: \(error)")
    }
  }
}
