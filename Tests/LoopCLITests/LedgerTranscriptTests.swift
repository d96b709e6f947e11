import Foundation
import LoopCLI
import Testing

/// Every `ledger` command, run through a session in Seoul on 2025-03-15.
///
/// The seeded ids make the transactions Salary `910a2de`, Lunch `f893a2e`, Groceries `71bb54d`, the unnamed
/// expense `e099ec6` and Gift `491718d`.
@MainActor
@Suite struct LedgerTranscriptTests {
  static let setup = """
    ledger add income 3,000 Salary --on 2025-03-01 --category Work
    ledger add expense 12.50 Lunch --category Food
    ledger add expense 40 Groceries --on 2025-02-20 --category Food
    ledger add expense 9.99 --on 2024-12-24
    ledger add income 100.5 Gift --on 2024-04-01
    """

  static let setupTranscript = """
    > ledger add income 3,000 Salary --on 2025-03-01 --category Work
    Added income 3,000.00 'Salary' on 2025-03-01 in Work (910a2de).
    > ledger add expense 12.50 Lunch --category Food
    Added expense 12.50 'Lunch' on 2025-03-15 in Food (f893a2e).
    > ledger add expense 40 Groceries --on 2025-02-20 --category Food
    Added expense 40.00 'Groceries' on 2025-02-20 in Food (71bb54d).
    > ledger add expense 9.99 --on 2024-12-24
    Added expense 9.99 on 2024-12-24 (e099ec6).
    > ledger add income 100.5 Gift --on 2024-04-01
    Added income 100.50 'Gift' on 2024-04-01 (491718d).

    """

  @Test func offsetAndLimitPrintPartOfTheLedger() async throws {
    let result = try await transcript(
      Self.setup + "\nledger list --offset 1 --limit 2\nledger list --offset 4 --format json")
    #expect(result.status == 0)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > ledger list --offset 1 --limit 2
        REF      DATE           AMOUNT  CATEGORY  MEMO
        910a2de  2025-03-01  +3,000.00  Work      Salary
        71bb54d  2025-02-20     -40.00  Food      Groceries
        > ledger list --offset 4 --format json
        [
          {
            "amount" : 10050,
            "createdAt" : "2025-03-15T01:00:00Z",
            "date" : "2024-03-31T15:00:00Z",
            "id" : "491718DE-357E-3DA8-CB43-5C8E74616796",
            "kind" : "income",
            "memo" : "Gift"
          }
        ]

        """)
  }

  @Test func listingHomeUpdatingAndRemoving() async throws {
    let result = try await transcript(
      Self.setup + "\n"
        + """
        ledger list
        ledger home
        ledger update 71 --amount 15 --memo "Lunch with Ana" --on 2025-02-21
        ledger update e0 --no-category --kind income
        ledger update f8 --category Treats
        ledger rm 49
        ledger list
        """)
    #expect(result.status == 0)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        f893a2e  2025-03-15     -12.50  Food      Lunch
        910a2de  2025-03-01  +3,000.00  Work      Salary
        71bb54d  2025-02-20     -40.00  Food      Groceries
        e099ec6  2024-12-24      -9.99
        491718d  2024-04-01    +100.50            Gift
        > ledger home
        This month (2025-03)
        income   3,000.00
        expense     12.50
        balance  2,987.50

        Recent
        REF      DATE           AMOUNT  CATEGORY  MEMO
        f893a2e  2025-03-15     -12.50  Food      Lunch
        910a2de  2025-03-01  +3,000.00  Work      Salary
        71bb54d  2025-02-20     -40.00  Food      Groceries
        e099ec6  2024-12-24      -9.99
        > ledger update 71 --amount 15 --memo "Lunch with Ana" --on 2025-02-21
        Updated 71bb54d: expense 15.00 'Lunch with Ana' on 2025-02-21 in Food.
        > ledger update e0 --no-category --kind income
        Updated e099ec6: income 9.99 on 2024-12-24.
        > ledger update f8 --category Treats
        Updated f893a2e: expense 12.50 'Lunch' on 2025-03-15 in Treats.
        > ledger rm 49
        Deleted income 100.50 'Gift' on 2024-04-01.
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        f893a2e  2025-03-15     -12.50  Treats    Lunch
        910a2de  2025-03-01  +3,000.00  Work      Salary
        71bb54d  2025-02-21     -15.00  Food      Lunch with Ana
        e099ec6  2024-12-24      +9.99

        """)
  }

  @Test func theReportChartsTwelveMonthsAndTheCategories() async throws {
    let result = try await transcript(
      Self.setup + "\nledger report\nledger report --kind income")
    #expect(result.status == 0)
    let months = """
      2024-04 to 2025-03 (12 months)  (█ income, ░ expense)
      2024-04  █                                 100.50
                                                   0.00
      2024-05                                      0.00
                                                   0.00
      2024-06                                      0.00
                                                   0.00
      2024-07                                      0.00
                                                   0.00
      2024-08                                      0.00
                                                   0.00
      2024-09                                      0.00
                                                   0.00
      2024-10                                      0.00
                                                   0.00
      2024-11                                      0.00
                                                   0.00
      2024-12                                      0.00
               ░                                   9.99
      2025-01                                      0.00
                                                   0.00
      2025-02                                      0.00
               ░                                  40.00
      2025-03  ██████████████████████████████  3,000.00
               ░                                  12.50
      balance over 12 months: 3,038.01


      """
    #expect(
      result.transcript == Self.setupTranscript + "> ledger report\n" + months
        + """
        Expenses by category
        Food    ██████████████████████████████  52.50  (2)
        (none)  ██████                           9.99  (1)
        > ledger report --kind income

        """ + months
          + """
          Income by category
          Work    ██████████████████████████████  3,000.00  (1)
          (none)  █                                 100.50  (1)

          """)
  }

  @Test func theLedgerAsJSON() async throws {
    let result = try await transcript(
      """
      ledger add expense 12.50 Lunch --category Food
      ledger list --format json
      ledger home --format json
      """)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger add expense 12.50 Lunch --category Food
        Added expense 12.50 'Lunch' on 2025-03-15 in Food (910a2de).
        > ledger list --format json
        [
          {
            "amount" : 1250,
            "category" : "Food",
            "createdAt" : "2025-03-15T01:00:00Z",
            "date" : "2025-03-15T01:00:00Z",
            "id" : "910A2DEC-8902-5CC1-BEEB-8DA1658EEC67",
            "kind" : "expense",
            "memo" : "Lunch"
          }
        ]
        > ledger home --format json
        {
          "recent" : [
            {
              "amount" : 1250,
              "category" : "Food",
              "createdAt" : "2025-03-15T01:00:00Z",
              "date" : "2025-03-15T01:00:00Z",
              "id" : "910A2DEC-8902-5CC1-BEEB-8DA1658EEC67",
              "kind" : "expense",
              "memo" : "Lunch"
            }
          ],
          "thisMonth" : {
            "balance" : -1250,
            "expense" : 1250,
            "income" : 0,
            "month" : {
              "end" : "2025-03-31T15:00:00Z",
              "month" : 3,
              "start" : "2025-02-28T15:00:00Z",
              "year" : 2025
            }
          }
        }

        """)
  }

  @Test func theReportAsJSONHasTwelveMonthsAndTheCategoryTotals() async throws {
    let result = try await transcript(Self.setup + "\nledger report --format json")
    #expect(result.status == 0)
    let json = try #require(
      result.transcript.components(separatedBy: "> ledger report --format json\n").last)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(report["categoryKind"] as? String == "expense")
    let months = try #require(report["months"] as? [[String: Any]])
    #expect(months.count == 12)
    #expect(months.last?["balance"] as? Int == 298_750)
    let categories = try #require(report["categories"] as? [[String: Any]])
    #expect(categories.map { $0["category"] as? String } == ["Food", nil])
    #expect(categories.map { $0["total"] as? Int } == [5250, 999])
    #expect(categories.map { $0["count"] as? Int } == [2, 1])
  }

  @Test func badLedgerCommandsChangeNothing() async throws {
    let result = try await transcript(
      Self.setup + "\n"
        + """
        ledger add spend 5
        ledger add expense
        ledger add expense abc
        ledger add expense 12.345
        ledger add expense 0
        ledger add expense 1000000000
        ledger add expense 5 --on 2025-02-30
        ledger add expense 5 --on 1969-12-31
        ledger add expense 5 Lunch extra
        ledger update 71
        ledger update 71 --amount -3
        ledger update 71 --kind gift
        ledger rm 5
        ledger rm
        ledger list
        """)
    #expect(result.status == 1)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > ledger add spend 5
        ! test:6: error: 'spend' is not 'income' or 'expense'
        ! usage: ledger add income|expense <amount> [<memo>] [--on YYYY-MM-DD] [--category NAME]
        > ledger add expense
        ! test:7: error: 'ledger add' needs <amount>
        ! usage: ledger add income|expense <amount> [<memo>] [--on YYYY-MM-DD] [--category NAME]
        > ledger add expense abc
        ! test:8: error: 'abc' is not an amount.
        > ledger add expense 12.345
        ! test:9: error: '12.345' has more than 2 decimal places.
        > ledger add expense 0
        ! test:10: error: The amount must be greater than zero, not '0.00'.
        > ledger add expense 1000000000
        ! test:11: error: '1000000000' is more than the largest amount, 999,999,999.99.
        > ledger add expense 5 --on 2025-02-30
        ! test:12: error: '2025-02-30' is not a date
        ! write dates as YYYY-MM-DD, such as 2025-03-01
        > ledger add expense 5 --on 1969-12-31
        ! test:13: error: '1969-12-31' is not a plausible date: pick a day from 1970-01-01 to 2035-03-15.
        > ledger add expense 5 Lunch extra
        ! test:14: error: unexpected argument 'extra'
        ! usage: ledger add income|expense <amount> [<memo>] [--on YYYY-MM-DD] [--category NAME]
        > ledger update 71
        ! test:15: error: there is nothing to change: give at least one option
        ! usage: ledger update <ref> [--kind income|expense] [--amount AMOUNT] [--memo TEXT] [--on YYYY-MM-DD] [--category NAME] [--no-category]
        > ledger update 71 --amount -3
        ! test:16: error: The amount must be greater than zero, not '-3.00'.
        > ledger update 71 --kind gift
        ! test:17: error: 'gift' is not a value of '--kind': use 'income' or 'expense'
        ! usage: ledger update <ref> [--kind income|expense] [--amount AMOUNT] [--memo TEXT] [--on YYYY-MM-DD] [--category NAME] [--no-category]
        > ledger rm 5
        ! test:18: error: no transaction has the ref or name '5'
        ! 'ledger list' shows every transaction with its ref
        > ledger rm
        ! test:19: error: 'ledger rm' needs <ref>
        ! usage: ledger rm <ref>
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        f893a2e  2025-03-15     -12.50  Food      Lunch
        910a2de  2025-03-01  +3,000.00  Work      Salary
        71bb54d  2025-02-20     -40.00  Food      Groceries
        e099ec6  2024-12-24      -9.99
        491718d  2024-04-01    +100.50            Gift

        """)
  }

  // MARK: - The report's period

  static let lastYear = """
    ledger add income 2,000 Salary --on 2024-11-01 --category Work
    ledger add expense 30 Books --on 2024-12-10 --category Reading
    ledger add expense 8 Coffee --on 2024-02-10 --category Food
    """

  @Test func theReportCoversTheTwelveMonthsUpToTheLatestTransactionsByDefault() async throws {
    let result = try await transcript(Self.lastYear + "\nledger report")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger add income 2,000 Salary --on 2024-11-01 --category Work
        Added income 2,000.00 'Salary' on 2024-11-01 in Work (910a2de).
        > ledger add expense 30 Books --on 2024-12-10 --category Reading
        Added expense 30.00 'Books' on 2024-12-10 in Reading (f893a2e).
        > ledger add expense 8 Coffee --on 2024-02-10 --category Food
        Added expense 8.00 'Coffee' on 2024-02-10 in Food (71bb54d).
        > ledger report
        2024-01 to 2024-12 (12 months)  (█ income, ░ expense)
        2024-01                                      0.00
                                                     0.00
        2024-02                                      0.00
                 ░                                   8.00
        2024-03                                      0.00
                                                     0.00
        2024-04                                      0.00
                                                     0.00
        2024-05                                      0.00
                                                     0.00
        2024-06                                      0.00
                                                     0.00
        2024-07                                      0.00
                                                     0.00
        2024-08                                      0.00
                                                     0.00
        2024-09                                      0.00
                                                     0.00
        2024-10                                      0.00
                                                     0.00
        2024-11  ██████████████████████████████  2,000.00
                                                     0.00
        2024-12                                      0.00
                 ░                                  30.00
        balance over 12 months: 1,962.00

        Expenses by category
        Reading  ██████████████████████████████  30.00  (1)
        Food     ████████                         8.00  (1)

        """)
  }

  @Test func theReportCoversTheMonthsFromTo() async throws {
    let result = try await transcript(Self.lastYear + "\nledger report --from 2024-11 --to 2024-12")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger add income 2,000 Salary --on 2024-11-01 --category Work
        Added income 2,000.00 'Salary' on 2024-11-01 in Work (910a2de).
        > ledger add expense 30 Books --on 2024-12-10 --category Reading
        Added expense 30.00 'Books' on 2024-12-10 in Reading (f893a2e).
        > ledger add expense 8 Coffee --on 2024-02-10 --category Food
        Added expense 8.00 'Coffee' on 2024-02-10 in Food (71bb54d).
        > ledger report --from 2024-11 --to 2024-12
        2024-11 to 2024-12 (2 months)  (█ income, ░ expense)
        2024-11  ██████████████████████████████  2,000.00
                                                     0.00
        2024-12                                      0.00
                 ░                                  30.00
        balance over 2 months: 1,970.00

        Expenses by category
        Reading  ██████████████████████████████  30.00  (1)

        """)
  }

  @Test func theReportCoversTheLastMonthsOfACount() async throws {
    let result = try await transcript(Self.lastYear + "\nledger report --months 2 --kind income")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger add income 2,000 Salary --on 2024-11-01 --category Work
        Added income 2,000.00 'Salary' on 2024-11-01 in Work (910a2de).
        > ledger add expense 30 Books --on 2024-12-10 --category Reading
        Added expense 30.00 'Books' on 2024-12-10 in Reading (f893a2e).
        > ledger add expense 8 Coffee --on 2024-02-10 --category Food
        Added expense 8.00 'Coffee' on 2024-02-10 in Food (71bb54d).
        > ledger report --months 2 --kind income
        2024-11 to 2024-12 (2 months)  (█ income, ░ expense)
        2024-11  ██████████████████████████████  2,000.00
                                                     0.00
        2024-12                                      0.00
                 ░                                  30.00
        balance over 2 months: 1,970.00

        Income by category
        Work  ██████████████████████████████  2,000.00  (1)

        """)
  }

  @Test func theReportCoversACountOfMonthsFromAMonth() async throws {
    let result = try await transcript(Self.lastYear + "\nledger report --from 2024-01 --months 2")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger add income 2,000 Salary --on 2024-11-01 --category Work
        Added income 2,000.00 'Salary' on 2024-11-01 in Work (910a2de).
        > ledger add expense 30 Books --on 2024-12-10 --category Reading
        Added expense 30.00 'Books' on 2024-12-10 in Reading (f893a2e).
        > ledger add expense 8 Coffee --on 2024-02-10 --category Food
        Added expense 8.00 'Coffee' on 2024-02-10 in Food (71bb54d).
        > ledger report --from 2024-01 --months 2
        2024-01 to 2024-02 (2 months)  (█ income, ░ expense)
        2024-01                                  0.00
                                                 0.00
        2024-02                                  0.00
                 ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░  8.00
        balance over 2 months: -8.00

        Expenses by category
        Food  ██████████████████████████████  8.00  (1)

        """)
  }

  @Test func theReportCoversTwelveMonthsToAMonth() async throws {
    let result = try await transcript(Self.lastYear + "\nledger report --to 2024-03 --format json")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger add income 2,000 Salary --on 2024-11-01 --category Work
        Added income 2,000.00 'Salary' on 2024-11-01 in Work (910a2de).
        > ledger add expense 30 Books --on 2024-12-10 --category Reading
        Added expense 30.00 'Books' on 2024-12-10 in Reading (f893a2e).
        > ledger add expense 8 Coffee --on 2024-02-10 --category Food
        Added expense 8.00 'Coffee' on 2024-02-10 in Food (71bb54d).
        > ledger report --to 2024-03 --format json
        {
          "categories" : [
            {
              "category" : "Food",
              "count" : 1,
              "total" : 800
            }
          ],
          "categoryKind" : "expense",
          "months" : [
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2023-04-30T15:00:00Z",
                "month" : 4,
                "start" : "2023-03-31T15:00:00Z",
                "year" : 2023
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2023-05-31T15:00:00Z",
                "month" : 5,
                "start" : "2023-04-30T15:00:00Z",
                "year" : 2023
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2023-06-30T15:00:00Z",
                "month" : 6,
                "start" : "2023-05-31T15:00:00Z",
                "year" : 2023
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2023-07-31T15:00:00Z",
                "month" : 7,
                "start" : "2023-06-30T15:00:00Z",
                "year" : 2023
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2023-08-31T15:00:00Z",
                "month" : 8,
                "start" : "2023-07-31T15:00:00Z",
                "year" : 2023
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2023-09-30T15:00:00Z",
                "month" : 9,
                "start" : "2023-08-31T15:00:00Z",
                "year" : 2023
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2023-10-31T15:00:00Z",
                "month" : 10,
                "start" : "2023-09-30T15:00:00Z",
                "year" : 2023
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2023-11-30T15:00:00Z",
                "month" : 11,
                "start" : "2023-10-31T15:00:00Z",
                "year" : 2023
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2023-12-31T15:00:00Z",
                "month" : 12,
                "start" : "2023-11-30T15:00:00Z",
                "year" : 2023
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2024-01-31T15:00:00Z",
                "month" : 1,
                "start" : "2023-12-31T15:00:00Z",
                "year" : 2024
              }
            },
            {
              "balance" : -800,
              "expense" : 800,
              "income" : 0,
              "month" : {
                "end" : "2024-02-29T15:00:00Z",
                "month" : 2,
                "start" : "2024-01-31T15:00:00Z",
                "year" : 2024
              }
            },
            {
              "balance" : 0,
              "expense" : 0,
              "income" : 0,
              "month" : {
                "end" : "2024-03-31T15:00:00Z",
                "month" : 3,
                "start" : "2024-02-29T15:00:00Z",
                "year" : 2024
              }
            }
          ],
          "period" : {
            "from" : "2023-04",
            "to" : "2024-03"
          }
        }

        """)
  }

  @Test func aPeriodThatCannotBeIsRefusedWithTheUsage() async throws {
    let result = try await transcript(
      "ledger report --from 2024-13\nledger report --from 2024-05 --to 2024-01\n"
        + "ledger report --months 0\nledger report --from 2024-01 --to 2024-02 --months 2")
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > ledger report --from 2024-13
        ! test:1: error: '2024-13' is not a month: write months as YYYY-MM, such as 2025-03
        ! usage: ledger report [--kind expense|income] [--from YYYY-MM] [--to YYYY-MM] [--months N] [--format text|json]
        > ledger report --from 2024-05 --to 2024-01
        ! test:2: error: '--to 2024-01' comes before '--from 2024-05'
        ! usage: ledger report [--kind expense|income] [--from YYYY-MM] [--to YYYY-MM] [--months N] [--format text|json]
        > ledger report --months 0
        ! test:3: error: '0' is not a number of months: '--months' takes 1 to 1200
        ! usage: ledger report [--kind expense|income] [--from YYYY-MM] [--to YYYY-MM] [--months N] [--format text|json]
        > ledger report --from 2024-01 --to 2024-02 --months 2
        ! test:4: error: '--from', '--to' and '--months' cannot all be given: choose two
        ! usage: ledger report [--kind expense|income] [--from YYYY-MM] [--to YYYY-MM] [--months N] [--format text|json]

        """)
  }
}
