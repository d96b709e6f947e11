import Foundation
import LinkClient
import Persistence
import TestSupport
import Testing

@testable import LinkClientLive

@Suite struct LiveValueTests {
  @Test func aDatabaseThatCannotBeOpenedMakesEveryEndpointThrowInsteadOfCrashing() async {
    // NB: `liveValue` opens the default file; this is the same code on a path that cannot be a
    // file (a folder inside a regular file).
    let client = LinkClient.live(opening: .file("/dev/null/links.sqlite"))
    do {
      _ = try await client.fetchLinks()
      Issue.record("Expected fetchLinks to throw")
    } catch let error as LinkError {
      guard case .storageFailed(let reason) = error else {
        Issue.record("Expected storageFailed, got \(error)")
        return
      }
      #expect(reason.hasPrefix("Cannot open '/dev/null/links.sqlite': "))
    } catch {
      Issue.record("Expected a LinkError, got \(error)")
    }
  }
}
