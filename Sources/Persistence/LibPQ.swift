// swift-format-ignore-file: AlwaysUseLowerCamelCase
// NB: the functions at the end have libpq's C names (`PQexec`), which they stand in for.

import CLibPQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libpq, PostgreSQL's C client, loaded with `dlopen` when the first PostgreSQL store opens.
///
/// No module of the app links libpq: a run that opens only SQLite stores never maps it and the
/// libraries it needs (GnuTLS, Kerberos, LDAP, SASL: about 25), whose loading and symbol
/// binding were a third of the start-up of every `loop` process.
///
/// NB: Persistence calls libpq by the C names, through the functions below them in this file;
/// being this module's, they shadow the declarations of `CLibPQ` (which only describes types and
/// constants), and each calls the symbol ``load(_:)`` found. Call ``require()`` before any of
/// them: they assume the library is loaded.
enum LibPQ {
  /// The file opened: the soname of every libpq since PostgreSQL 8.
  static let fileName = "libpq.so.5"

  /// libpq's functions, or why they could not be loaded: opened once, on first use.
  static let loaded = load(fileName)

  /// Loads libpq, or throws ``PersistenceError/cannotConnect(server:reason:)`` naming the
  /// library and why it could not be loaded.
  static func require() throws(PersistenceError) {
    _ = try loaded.get()
  }

  /// The functions of the library in the file `fileName`, or the error naming it.
  static func load(_ fileName: String) -> Result<Functions, PersistenceError> {
    func failure(_ why: String) -> PersistenceError {
      .cannotConnect(
        server: "the server named by the connection string",
        reason: "PostgreSQL's client library \(fileName) could not be loaded: \(why)")
    }
    guard let library = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
      return .failure(failure(dlerror().map { String(cString: $0) } ?? "no reason given"))
    }
    func symbol<T>(_ name: String) throws(PersistenceError) -> T {
      guard let address = dlsym(library, name) else {
        throw failure("it has no function \(name)")
      }
      return unsafeBitCast(address, to: T.self)
    }
    do throws(PersistenceError) {
      return .success(
        Functions(
          clear: try symbol("PQclear"), cmdTuples: try symbol("PQcmdTuples"),
          connectdbParams: try symbol("PQconnectdbParams"),
          connectionNeedsPassword: try symbol("PQconnectionNeedsPassword"),
          conninfoFree: try symbol("PQconninfoFree"), conninfoParse: try symbol("PQconninfoParse"),
          consumeInput: try symbol("PQconsumeInput"), db: try symbol("PQdb"),
          errorMessage: try symbol("PQerrorMessage"), exec: try symbol("PQexec"),
          execPrepared: try symbol("PQexecPrepared"), finish: try symbol("PQfinish"),
          freemem: try symbol("PQfreemem"), ftype: try symbol("PQftype"),
          getisnull: try symbol("PQgetisnull"), getlength: try symbol("PQgetlength"),
          getvalue: try symbol("PQgetvalue"), host: try symbol("PQhost"),
          ntuples: try symbol("PQntuples"), parameterStatus: try symbol("PQparameterStatus"),
          port: try symbol("PQport"), prepare: try symbol("PQprepare"),
          resultErrorField: try symbol("PQresultErrorField"),
          resultStatus: try symbol("PQresultStatus"),
          setNoticeProcessor: try symbol("PQsetNoticeProcessor"), socket: try symbol("PQsocket"),
          status: try symbol("PQstatus"), transactionStatus: try symbol("PQtransactionStatus"),
          user: try symbol("PQuser")))
    } catch {
      return .failure(error)
    }
  }

  /// The loaded functions, once ``require()`` succeeded.
  static var functions: Functions {
    guard case .success(let functions) = loaded else {
      preconditionFailure("libpq was called before LibPQ.require() loaded it")
    }
    return functions
  }

  /// The functions Persistence calls, with the types CLibPQ declares for them.
  struct Functions {
    typealias Connection = OpaquePointer?
    typealias Result = OpaquePointer?
    typealias Text = UnsafePointer<CChar>?

    let clear: @convention(c) (Result) -> Void
    let cmdTuples: @convention(c) (Result) -> UnsafeMutablePointer<CChar>?
    let connectdbParams:
      @convention(c) (UnsafePointer<Text>?, UnsafePointer<Text>?, Int32) -> Connection
    let connectionNeedsPassword: @convention(c) (Connection) -> Int32
    let conninfoFree: @convention(c) (UnsafeMutablePointer<PQconninfoOption>?) -> Void
    let conninfoParse:
      @convention(c) (Text, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) ->
        UnsafeMutablePointer<PQconninfoOption>?
    let consumeInput: @convention(c) (Connection) -> Int32
    let db: @convention(c) (Connection) -> UnsafeMutablePointer<CChar>?
    let errorMessage: @convention(c) (Connection) -> UnsafeMutablePointer<CChar>?
    let exec: @convention(c) (Connection, Text) -> Result
    let execPrepared:
      @convention(c) (
        Connection, Text, Int32, UnsafePointer<Text>?, UnsafePointer<Int32>?,
        UnsafePointer<Int32>?, Int32
      ) -> Result
    let finish: @convention(c) (Connection) -> Void
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let ftype: @convention(c) (Result, Int32) -> Oid
    let getisnull: @convention(c) (Result, Int32, Int32) -> Int32
    let getlength: @convention(c) (Result, Int32, Int32) -> Int32
    let getvalue: @convention(c) (Result, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let host: @convention(c) (Connection) -> UnsafeMutablePointer<CChar>?
    let ntuples: @convention(c) (Result) -> Int32
    let parameterStatus: @convention(c) (Connection, Text) -> Text
    let port: @convention(c) (Connection) -> UnsafeMutablePointer<CChar>?
    let prepare: @convention(c) (Connection, Text, Text, Int32, UnsafePointer<Oid>?) -> Result
    let resultErrorField: @convention(c) (Result, Int32) -> UnsafeMutablePointer<CChar>?
    let resultStatus: @convention(c) (Result) -> ExecStatusType
    let setNoticeProcessor:
      @convention(c) (Connection, PQnoticeProcessor?, UnsafeMutableRawPointer?) ->
        PQnoticeProcessor?
    let socket: @convention(c) (Connection) -> Int32
    let status: @convention(c) (Connection) -> ConnStatusType
    let transactionStatus: @convention(c) (Connection) -> PGTransactionStatusType
    let user: @convention(c) (Connection) -> UnsafeMutablePointer<CChar>?

  }
}

// MARK: - libpq by its C names

// NB: one line each, with CLibPQ's signature, so that the calls read as libpq's documentation.

func PQclear(_ result: OpaquePointer?) { LibPQ.functions.clear(result) }

func PQcmdTuples(_ result: OpaquePointer?) -> UnsafeMutablePointer<CChar>! {
  LibPQ.functions.cmdTuples(result)
}

func PQconnectdbParams(
  _ keywords: UnsafePointer<UnsafePointer<CChar>?>?,
  _ values: UnsafePointer<UnsafePointer<CChar>?>?,
  _ expandDatabaseName: Int32
) -> OpaquePointer! {
  LibPQ.functions.connectdbParams(keywords, values, expandDatabaseName)
}

func PQconnectionNeedsPassword(_ connection: OpaquePointer?) -> Int32 {
  LibPQ.functions.connectionNeedsPassword(connection)
}

func PQconninfoFree(_ options: UnsafeMutablePointer<PQconninfoOption>?) {
  LibPQ.functions.conninfoFree(options)
}

func PQconninfoParse(
  _ string: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> UnsafeMutablePointer<PQconninfoOption>! {
  LibPQ.functions.conninfoParse(string, error)
}

func PQconsumeInput(_ connection: OpaquePointer?) -> Int32 {
  LibPQ.functions.consumeInput(connection)
}

func PQdb(_ connection: OpaquePointer?) -> UnsafeMutablePointer<CChar>! {
  LibPQ.functions.db(connection)
}

func PQerrorMessage(_ connection: OpaquePointer?) -> UnsafeMutablePointer<CChar>! {
  LibPQ.functions.errorMessage(connection)
}

func PQexec(_ connection: OpaquePointer?, _ sql: UnsafePointer<CChar>?) -> OpaquePointer! {
  LibPQ.functions.exec(connection, sql)
}

func PQexecPrepared(
  _ connection: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ count: Int32,
  _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ lengths: UnsafePointer<Int32>?,
  _ formats: UnsafePointer<Int32>?, _ resultFormat: Int32
) -> OpaquePointer! {
  LibPQ.functions.execPrepared(connection, name, count, values, lengths, formats, resultFormat)
}

func PQfinish(_ connection: OpaquePointer?) { LibPQ.functions.finish(connection) }

func PQfreemem(_ pointer: UnsafeMutableRawPointer?) { LibPQ.functions.freemem(pointer) }

func PQftype(_ result: OpaquePointer?, _ column: Int32) -> Oid {
  LibPQ.functions.ftype(result, column)
}

func PQgetisnull(_ result: OpaquePointer?, _ row: Int32, _ column: Int32) -> Int32 {
  LibPQ.functions.getisnull(result, row, column)
}

func PQgetlength(_ result: OpaquePointer?, _ row: Int32, _ column: Int32) -> Int32 {
  LibPQ.functions.getlength(result, row, column)
}

func PQgetvalue(_ result: OpaquePointer?, _ row: Int32, _ column: Int32) -> UnsafeMutablePointer<
  CChar
>! {
  LibPQ.functions.getvalue(result, row, column)
}

func PQhost(_ connection: OpaquePointer?) -> UnsafeMutablePointer<CChar>! {
  LibPQ.functions.host(connection)
}

func PQntuples(_ result: OpaquePointer?) -> Int32 { LibPQ.functions.ntuples(result) }

func PQparameterStatus(_ connection: OpaquePointer?, _ name: UnsafePointer<CChar>?)
  -> UnsafePointer<CChar>!
{
  LibPQ.functions.parameterStatus(connection, name)
}

func PQport(_ connection: OpaquePointer?) -> UnsafeMutablePointer<CChar>! {
  LibPQ.functions.port(connection)
}

func PQprepare(
  _ connection: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ sql: UnsafePointer<CChar>?,
  _ count: Int32, _ types: UnsafePointer<Oid>?
) -> OpaquePointer! {
  LibPQ.functions.prepare(connection, name, sql, count, types)
}

func PQresultErrorField(_ result: OpaquePointer?, _ field: Int32) -> UnsafeMutablePointer<CChar>! {
  LibPQ.functions.resultErrorField(result, field)
}

func PQresultStatus(_ result: OpaquePointer?) -> ExecStatusType {
  LibPQ.functions.resultStatus(result)
}

@discardableResult
func PQsetNoticeProcessor(
  _ connection: OpaquePointer?, _ processor: PQnoticeProcessor?,
  _ argument: UnsafeMutableRawPointer?
) -> PQnoticeProcessor! {
  LibPQ.functions.setNoticeProcessor(connection, processor, argument)
}

func PQsocket(_ connection: OpaquePointer?) -> Int32 { LibPQ.functions.socket(connection) }

func PQstatus(_ connection: OpaquePointer?) -> ConnStatusType {
  LibPQ.functions.status(connection)
}

func PQtransactionStatus(_ connection: OpaquePointer?) -> PGTransactionStatusType {
  LibPQ.functions.transactionStatus(connection)
}

func PQuser(_ connection: OpaquePointer?) -> UnsafeMutablePointer<CChar>! {
  LibPQ.functions.user(connection)
}
