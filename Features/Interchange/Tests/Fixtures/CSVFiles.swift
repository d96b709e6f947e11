// CSV files shaped like real exports, written for these tests.

/// Links with quoted commas, a quoted newline, doubled quotes, a blank memo, a record too
/// short, an address that is not one, a date that is not one, a blank line and non-ASCII text.
let linksCSV = #"""
  title,url,category,memo,created
  "Swift, the language",https://swift.org,Dev,"Two
  lines",2025-03-15T01:00:00Z
  Plain,https://plain.example,,,
  "He said ""hi""",https://example.com/hi?a=1&b=2,"Dev, Tools", ,2025-03-15
  Broken,not a url,,,
  Short row,https://short.example
  Dated badly,https://dated.example,,,yesterday

  "Café ☕",https://cafe.example/menu,dev,,

  """#

/// A German bank's export: semicolons between fields, `dd.MM.yyyy` dates, decimal commas with
/// grouped thousands, a kind in capitals, a memo with a semicolon, and one over two lines.
let europeanLedgerCSV = """
  date;kind;amount;memo;category
  31.01.2025;income;3.200,00;Gehalt;Arbeit
  01.02.2025;expense;1.234,50;Miete;Wohnen
  03.02.2025;Expense;12,5;"Café; Kuchen";Essen
  05.02.2025;expense;0,99;"Zeitung
  (Wochenende)";

  """

/// The European ledger with a last row whose amount is negative: the import must fail whole.
let europeanLedgerCSVWithABadLastRow = europeanLedgerCSV + "06.02.2025;expense;-5,00;Kaffee;\n"
