import CategoryClient
import Foundation
import LinkClient
import LinkClientLive
import Loop
import Persistence

extension CategoryClient: DependencyKey {
  /// The client on the app's database file (`ModelContainer.defaultFilePath()`).
  ///
  /// When the file cannot be opened, every endpoint throws `LinkError.storageFailed` with the
  /// reason; nothing crashes.
  ///
  /// NB: the conformance is this module's, so a program resolves `\.categoryClient` to it only
  /// when it links this module (the app's composition imports it); the interface declares the
  /// test value.
  public static var liveValue: CategoryClient {
    live(opening: .file(ModelContainer.defaultFilePath()))
  }
}

extension CategoryClient {
  /// The model types the client reads and writes: the links domain's, since deleting a category
  /// updates links.
  public static var models: [any PersistentModel.Type] { LinkClient.models }

  /// The client over a model context: the rules of ``CategoryClient/init(storage:)`` on the
  /// context's rows.
  ///
  /// The context's container must hold ``models``.
  ///
  /// - Parameter context: The context to read and write.
  /// - Returns: The client.
  public static func live(context: ModelContext) -> CategoryClient {
    CategoryClient(storage: ContextLinkStorage(context: context))
  }

  /// The client over a new container on `storage`, or a client that throws the reason when it
  /// cannot be opened.
  ///
  /// - Parameter storage: Where the container keeps its data.
  /// - Returns: The client.
  public static func live(opening storage: ModelContainer.Storage) -> CategoryClient {
    do {
      return live(context: ModelContext(try ModelContainer(for: models, storage: storage)))
    } catch {
      return failing(LinkError(error))
    }
  }
}
