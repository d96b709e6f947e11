import Foundation
import Interchange
import LedgerClient
import Testing

/// A transaction a statement holds, as the tests compare them.
struct Booked: Equatable, CustomStringConvertible {
  var line: Int
  var kind: LedgerTransaction.Kind
  var cents: Int64
  var day: String
  var memo: String

  var description: String { "line \(line): \(kind) \(cents) on \(day) '\(memo)'" }
}

/// A bank statement in one of the shapes banks export it, the hledger rules that read it, and
/// what it holds.
struct StatementShape: Sendable, CustomTestStringConvertible {
  var name: String
  var bytes: Data
  var rules: String
  var booked: [Booked]
  /// The lines of the rows that are not transactions (zero amounts, pending rows, a footer).
  var skippedLines: [Int] = []

  var testDescription: String { name }

  /// Text as UTF-8.
  static func utf8(_ text: String) -> Data { Data(text.utf8) }

  /// Text as ISO-8859-1: one byte a character.
  static func latin1(_ text: String) -> Data {
    Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
  }

  static let all = [
    preambleOfOneLine, preambleOfThirteenLines, byteOrderMark, latin1Encoded, shortHeader,
    noHeader, splitInAndOut, zeroAmount, strayQuotes, trailingEmptyFields, pendingByStatus,
    pendingInsteadOfADate, payPal, debitOrCreditColumn, dateAndTime, quotedEmptyLines,
  ]

  static let preambleOfOneLine = StatementShape(
    name: "a preamble of one line, ; unquoted",
    bytes: utf8(
      """
      Umsätze Girokonto DE12 3456 7890 1234 5678 90
      Buchungstag;Verwendungszweck;Betrag
      03.03.2025;REWE Markt Berlin;-23,45
      01.03.2025;Gehalt März;2.500,00

      """),
    rules: """
      skip 2
      separator ;
      fields date, description, amount
      date-format %d.%m.%Y
      decimal-mark ,

      """,
    booked: [
      Booked(line: 3, kind: .expense, cents: 2_345, day: "2025-03-03", memo: "REWE Markt Berlin"),
      Booked(line: 4, kind: .income, cents: 250_000, day: "2025-03-01", memo: "Gehalt März"),
    ])

  static let preambleOfThirteenLines = StatementShape(
    name: "a preamble of 13 lines with blank ones, ; quoted",
    bytes: utf8(
      """
      "Kontonummer:";"DE12 3456 7890 1234 5678 90 / Girokonto";

      "Zeitraum:";"01.03.2025 - 15.03.2025";
      "Kontostand vom 15.03.2025:";"1.234,56 EUR";

      "Sortierung:";"Buchungsdatum absteigend";
      "Kontoinhaber:";"Erika Mustermann";
      "Bank:";"Beispielbank";
      "BIC:";"BEISPDE1XXX";
      "Währung:";"EUR";

      "Hinweis:";"Vorläufige Umsätze";
      "Exportiert am:";"15.03.2025";
      "Buchungstag";"Wertstellung";"Buchungstext";"Auftraggeber / Begünstigter";"Verwendungszweck";"Betrag (EUR)";
      "14.03.2025";"14.03.2025";"Lastschrift";"Stadtwerke";"Strom März";"-1.234,56";
      "12.03.2025";"12.03.2025";"Gutschrift";"Arbeitgeber GmbH";"Gehalt";"3.000,00";

      """),
    rules: """
      # Beispielbank, Girokonto
      skip 11
      separator ;
      fields date, _, _, payee, description, amount
      date-format %d.%m.%Y
      decimal-mark ,
      description %payee %description

      """,
    booked: [
      Booked(
        line: 15, kind: .expense, cents: 123_456, day: "2025-03-14", memo: "Stadtwerke Strom März"),
      Booked(
        line: 16, kind: .income, cents: 300_000, day: "2025-03-12", memo: "Arbeitgeber GmbH Gehalt"),
    ])

  static let byteOrderMark = StatementShape(
    name: "a UTF-8 byte order mark",
    bytes: Data([0xEF, 0xBB, 0xBF])
      + utf8(
        """
        Datum;Empfänger;Verwendungszweck;Betrag (€)
        05.03.2025;Bäckerei Müller;Brötchen;-4,20
        06.03.2025;Erika;Rückzahlung;15

        """),
    rules: """
      skip 1
      separator ;
      fields date, payee, description, amount
      date-format %d.%m.%Y
      decimal-mark ,
      description %payee %description

      """,
    booked: [
      Booked(
        line: 2, kind: .expense, cents: 420, day: "2025-03-05", memo: "Bäckerei Müller Brötchen"),
      Booked(line: 3, kind: .income, cents: 1_500, day: "2025-03-06", memo: "Erika Rückzahlung"),
    ])

  static let latin1Encoded = StatementShape(
    name: "ISO-8859-1, two-digit years, a currency column",
    bytes: latin1(
      """
      Buchung;Auftraggeber/Empfänger;Verwendungszweck;Betrag;Währung
      07.03.25;Café Größenwahn;Frühstück;-10,7;EUR
      08.03.25;Jürgen Weiß;Geschenk zurück;200;EUR

      """),
    rules: """
      skip 1
      separator ;
      encoding iso-8859-1
      fields date, payee, description, amount, currency
      date-format %d.%m.%y
      decimal-mark ,
      description %payee %description

      """,
    booked: [
      Booked(
        line: 2, kind: .expense, cents: 1_070, day: "2025-03-07",
        memo: "Café Größenwahn Frühstück"),
      Booked(
        line: 3, kind: .income, cents: 20_000, day: "2025-03-08",
        memo: "Jürgen Weiß Geschenk zurück"),
    ])

  static let shortHeader = StatementShape(
    name: "a header naming fewer columns than the rows have",
    bytes: utf8(
      """
      Buchungstag;Verwendungszweck;Betrag
      09.03.2025;Kino;-13721;Kino GmbH;DE89370400440532013000
      10.03.2025;Erstattung;1.234,56;Versicherung;DE02120300000000202051

      """),
    rules: """
      skip 1
      separator ;
      fields date, description, amount
      date-format %d.%m.%Y
      decimal-mark ,

      """,
    booked: [
      Booked(line: 2, kind: .expense, cents: 1_372_100, day: "2025-03-09", memo: "Kino"),
      Booked(line: 3, kind: .income, cents: 123_456, day: "2025-03-10", memo: "Erstattung"),
    ])

  static let noHeader = StatementShape(
    name: "no header",
    bytes: utf8(
      """
      01.03.2025;-12,50;REWE Markt
      02.03.2025;-3,20;Bäcker

      """),
    rules: """
      separator ;
      fields date, amount, description
      date-format %d.%m.%Y
      decimal-mark ,

      """,
    booked: [
      Booked(line: 1, kind: .expense, cents: 1_250, day: "2025-03-01", memo: "REWE Markt"),
      Booked(line: 2, kind: .expense, cents: 320, day: "2025-03-02", memo: "Bäcker"),
    ])

  static let splitInAndOut = StatementShape(
    name: "money out and money in in two columns, English",
    bytes: utf8(
      """
      Date,Description,Money Out,Money In,Balance
      2025-03-01,"Rent, March","1,234.56",,"5,000.00"
      2025-03-02,Refund,,200,"5,200.00"
      2025-03-03,Card fee,-2.50,,"5,197.50"

      """),
    rules: """
      skip 1
      fields date, description, amount-out, amount-in, _
      date-format %Y-%m-%d
      decimal-mark .

      """,
    booked: [
      Booked(line: 2, kind: .expense, cents: 123_456, day: "2025-03-01", memo: "Rent, March"),
      Booked(line: 3, kind: .income, cents: 20_000, day: "2025-03-02", memo: "Refund"),
      Booked(line: 4, kind: .expense, cents: 250, day: "2025-03-03", memo: "Card fee"),
    ])

  static let zeroAmount = StatementShape(
    name: "a row with a zero amount",
    bytes: utf8(
      """
      Buchungstag;Verwendungszweck;Betrag
      11.03.2025;Kontoabschluss;0,00
      11.03.2025;Zinsen;1,23

      """),
    rules: """
      skip 1
      separator ;
      fields date, description, amount
      date-format %d.%m.%Y
      decimal-mark ,

      """,
    booked: [Booked(line: 3, kind: .income, cents: 123, day: "2025-03-11", memo: "Zinsen")],
    skippedLines: [2])

  static let strayQuotes = StatementShape(
    name: "stray quotes inside quoted fields",
    bytes: utf8(
      """
      "Buchungstag";"Empfänger";"Verwendungszweck";"Betrag"
      "12.03.2025";"Kaufland "Süd" Berlin";"Einkauf";"-45,10"
      "12.03.2025";"Baumarkt";"Schlauch 5" Zoll";"-60,00"

      """),
    rules: """
      skip 1
      separator ;
      fields date, payee, description, amount
      date-format %d.%m.%Y
      decimal-mark ,
      description %payee %description

      """,
    booked: [
      Booked(
        line: 2, kind: .expense, cents: 4_510, day: "2025-03-12",
        memo: "Kaufland \"Süd\" Berlin Einkauf"),
      Booked(
        line: 3, kind: .expense, cents: 6_000, day: "2025-03-12",
        memo: "Baumarkt Schlauch 5\" Zoll"),
    ])

  static let trailingEmptyFields = StatementShape(
    name: "trailing empty fields and an empty row",
    bytes: utf8(
      """
      Buchungstag;Verwendungszweck;Betrag;;;
      13.03.2025;Miete;-850,00;;;
      ;;;;;

      """),
    rules: """
      skip 1
      separator ;
      fields date, description, amount, _, _, _
      date-format %d.%m.%Y
      decimal-mark ,

      """,
    booked: [Booked(line: 2, kind: .expense, cents: 85_000, day: "2025-03-13", memo: "Miete")])

  static let pendingByStatus = StatementShape(
    name: "a pending row beside a booked one, by a status column",
    bytes: utf8(
      """
      Buchungsdatum;Status;Zahlungsempfänger;Verwendungszweck;Betrag (€)
      14.03.2025;Vorgemerkt;Amazon;Bestellung 123;-19,99
      13.03.2025;Gebucht;Amazon;Bestellung 122;-9,99

      """),
    rules: """
      skip 1
      separator ;
      fields date, state, payee, description, amount
      date-format %d.%m.%Y
      decimal-mark ,
      description %payee %description

      if %state vorgemerkt
       skip

      """,
    booked: [
      Booked(line: 3, kind: .expense, cents: 999, day: "2025-03-13", memo: "Amazon Bestellung 122")
    ],
    skippedLines: [2])

  static let pendingInsteadOfADate = StatementShape(
    name: "a pending row marked 'offen' instead of a date, and a footer",
    bytes: utf8(
      """
      ;
      "Umsätze Girokonto";"Zeitraum: 30 Tage";
      "Neuer Kontostand";"1.234,56 EUR";
      ;
      "Buchungstag";"Wertstellung (Valuta)";"Vorgang";"Buchungstext";"Umsatz in EUR";
      "offen";"15.03.2025";"Lastschrift";"Netflix Abo";"-12,99";
      "14.03.2025";"14.03.2025";"Überweisung";"Vermieter Miete";"-900,00";
      "Alter Kontostand";"2.147,55 EUR";

      """),
    rules: """
      skip 5
      separator ;
      fields date, _, _, description, amount
      date-format %d.%m.%Y
      decimal-mark ,

      if %date ^offen$
       skip
      if ^Alter Kontostand
       end

      """,
    booked: [
      Booked(line: 7, kind: .expense, cents: 90_000, day: "2025-03-14", memo: "Vermieter Miete")
    ],
    skippedLines: [6, 8])

  static let payPal = StatementShape(
    name: "gross and net columns, quoted commas",
    bytes: utf8(
      """
      "Datum","Uhrzeit","Name","Typ","Status","Währung","Brutto","Gebühr","Netto"
      "01.03.2025","10:00:00","Spotify","Abbuchung","Abgeschlossen","EUR","-10,99","0,00","-10,99"
      "02.03.2025","11:00:00","Max Mustermann","Zahlung","Abgeschlossen","EUR","50,00","-1,20","48,80"

      """),
    rules: """
      skip 1
      fields date, time, payee, type, state, currency, gross, fee, amount
      date-format %d.%m.%Y
      decimal-mark ,

      """,
    booked: [
      Booked(line: 2, kind: .expense, cents: 1_099, day: "2025-03-01", memo: "Spotify"),
      Booked(line: 3, kind: .income, cents: 4_880, day: "2025-03-02", memo: "Max Mustermann"),
    ])

  static let debitOrCreditColumn = StatementShape(
    name: "unsigned amounts beside S (Soll) or H (Haben)",
    bytes: utf8(
      """
      "Buchungstag";"Valuta";"Zahlungsempfänger";"Vorgang/Verwendungszweck";"Währung";"Umsatz";"Soll/Haben"
      "03.03.2025";"03.03.2025";"Stadtwerke";"Abschlag März";"EUR";"45,00";"S"
      "04.03.2025";"04.03.2025";"Arbeitgeber";"Gehalt";"EUR";"2.100,00";"H"

      """),
    rules: """
      skip 1
      separator ;
      fields date, _, payee, description, currency, amount, sh
      date-format %d.%m.%Y
      decimal-mark ,
      description %payee %description

      if %sh ^S$
       amount -%amount

      """,
    booked: [
      Booked(
        line: 2, kind: .expense, cents: 4_500, day: "2025-03-03", memo: "Stadtwerke Abschlag März"),
      Booked(line: 3, kind: .income, cents: 210_000, day: "2025-03-04", memo: "Arbeitgeber Gehalt"),
    ])

  static let dateAndTime = StatementShape(
    name: "dates with a time of day, a pending state, English",
    bytes: utf8(
      """
      Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
      CARD_PAYMENT,Current,2025-03-01 10:15:00,2025-03-02 08:00:00,Coffee Shop,-3.50,0.00,EUR,COMPLETED,96.50
      TOPUP,Current,2025-03-03 09:00:00,,Top-up,100.00,0.00,EUR,PENDING,

      """),
    rules: """
      skip 1
      fields type, product, started, date, description, amount, fee, currency, state, balance_
      date-format %Y-%m-%d %H:%M:%S

      if %state pending
       skip

      """,
    booked: [
      Booked(line: 2, kind: .expense, cents: 350, day: "2025-03-02", memo: "Coffee Shop")
    ],
    skippedLines: [3])

  static let quotedEmptyLines = StatementShape(
    name: "a preamble with lines of one empty quoted field",
    bytes: utf8(
      """
      "Girokonto";"DE12 3456 7890 1234 5678 90"
      ""
      "Kontostand vom 15.03.2025:";"1.234,56 €"
      ""
      "Buchungsdatum";"Wertstellung";"Status";"Zahlungspflichtige*r";"Zahlungsempfänger*in";"Verwendungszweck";"Umsatztyp";"IBAN";"Betrag (€)";"Gläubiger-ID";"Mandatsreferenz";"Kundenreferenz"
      "14.03.25";"14.03.25";"Gebucht";"Erika Mustermann";"REWE Markt";"Einkauf";"Ausgang";"DE02120300000000202051";"-23,45";"";"";""
      "15.03.25";"15.03.25";"Vorgemerkt";"Erika Mustermann";"Kino";"Karten";"Ausgang";"DE02120300000000202051";"-20";"";"";""

      """),
    rules: """
      skip 3
      separator ;
      fields date, _, state, _, payee, description, _, _, amount
      date-format %d.%m.%y
      decimal-mark ,
      description %payee %description

      if %state vorgemerkt
       skip

      """,
    booked: [
      Booked(line: 6, kind: .expense, cents: 2_345, day: "2025-03-14", memo: "REWE Markt Einkauf")
    ],
    skippedLines: [7])
}
