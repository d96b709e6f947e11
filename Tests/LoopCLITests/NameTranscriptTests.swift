import Foundation
import LoopCLI
import Testing

/// Links and transactions named by a word where a ref goes: the whole name, its start, a part of
/// it, an ambiguous word, and a word that is both a ref and a name. (The habits' are in
/// `HabitTranscriptTests`.)
@MainActor
@Suite struct NameTranscriptTests {
  @Test func aLinkIsNamedByItsWholeTitleItsStartOrAPart() async throws {
    let result = try await transcript(
      LinkTranscriptTests.setup
        + "\nlink open loop\nlink fav 'swift BOOK'\nlink show compos\nlink comment archi 'Read it'")
    #expect(result.status == 0)
    #expect(
      result.transcript == LinkTranscriptTests.setupTranscript
        + """
        > link open loop
        Opened 'Loop': https://example.com/loop
        > link fav 'swift BOOK'
        'Swift book' is a favorite now.
        > link show compos
        Composable Architecture 491718d
        https://github.com/pointfreeco
        category  Swift
        added     2025-03-15 10:00
        viewed    never
        No comments.
        > link comment archi 'Read it'
        Commented on 'Composable Architecture'.

        """)
  }

  @Test func aWordInSeveralTitlesListsTheLinksAndChangesNothing() async throws {
    let result = try await transcript(
      LinkTranscriptTests.setup + "\nlink add 'Swift forums' https://forums.swift.org\n"
        + "link rm swift\nlink list")
    #expect(result.status == 1)
    #expect(
      result.transcript == LinkTranscriptTests.setupTranscript
        + """
        > link add 'Swift forums' https://forums.swift.org
        Added link 'Swift forums' (6775dc7).
        > link rm swift
        ! test:7: error: the name 'swift' is ambiguous: it matches 2 links
        !   71bb54d  Swift book
        !   6775dc7  Swift forums
        > link list
        REF      ★  TITLE                    CATEGORY
        e099ec6     Loop
        71bb54d     Swift book               Swift
        6775dc7     Swift forums
        491718d     Composable Architecture  Swift

        """)
  }

  @Test func aLinkTitledLikeAnotherLinksRefIsTakenByTitleSayingSo() async throws {
    let result = try await transcript(
      LinkTranscriptTests.setup + "\nlink add e0 https://example.com/e0\n"
        + "link add 'e09 notes' https://example.com/notes\nlink open e0\nlink open e09")
    #expect(result.status == 0)
    #expect(
      result.transcript == LinkTranscriptTests.setupTranscript
        + """
        > link add e0 https://example.com/e0
        Added link 'e0' (6775dc7).
        > link add 'e09 notes' https://example.com/notes
        Added link 'e09 notes' (7476cf8).
        > link open e0
        ! note: 'e0' is the name of the link 'e0'; it also starts the ref of 1 link: took the name
        Opened 'e0': https://example.com/e0
        > link open e09
        ! note: 'e09' starts the ref of the link 'Loop' and the name of 1 other link: took the ref
        Opened 'Loop': https://example.com/loop

        """)
  }

  @Test func aTransactionIsNamedByItsWholeMemoItsStartOrAPart() async throws {
    let result = try await transcript(
      LedgerTranscriptTests.setup
        + "\nledger update lunch --amount 14\nledger rm GROC\nledger update ift --amount 1\n"
        + "ledger list")
    #expect(result.status == 0)
    #expect(
      result.transcript == LedgerTranscriptTests.setupTranscript
        + """
        > ledger update lunch --amount 14
        Updated f893a2e: expense 14.00 'Lunch' on 2025-03-15 in Food.
        > ledger rm GROC
        Deleted expense 40.00 'Groceries' on 2025-02-20 in Food.
        > ledger update ift --amount 1
        Updated 491718d: income 1.00 'Gift' on 2024-04-01.
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        f893a2e  2025-03-15     -14.00  Food      Lunch
        910a2de  2025-03-01  +3,000.00  Work      Salary
        e099ec6  2024-12-24      -9.99
        491718d  2024-04-01      +1.00            Gift

        """)
  }

  @Test func aWordInSeveralMemosListsTheTransactionsAndChangesNothing() async throws {
    let result = try await transcript(
      LedgerTranscriptTests.setup + "\nledger add expense 5 'Lunch again'\nledger rm lun\n"
        + "ledger rm nothing\nledger list")
    #expect(result.status == 1)
    #expect(
      result.transcript == LedgerTranscriptTests.setupTranscript
        + """
        > ledger add expense 5 'Lunch again'
        Added expense 5.00 'Lunch again' on 2025-03-15 (6775dc7).
        > ledger rm lun
        ! test:7: error: the name 'lun' is ambiguous: it matches 2 transactions
        !   6775dc7  expense 5.00 'Lunch again' on 2025-03-15
        !   f893a2e  expense 12.50 'Lunch' on 2025-03-15 in Food
        > ledger rm nothing
        ! test:8: error: no transaction has the ref or name 'nothing'
        ! 'ledger list' shows every transaction with its ref
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        6775dc7  2025-03-15      -5.00            Lunch again
        f893a2e  2025-03-15     -12.50  Food      Lunch
        910a2de  2025-03-01  +3,000.00  Work      Salary
        71bb54d  2025-02-20     -40.00  Food      Groceries
        e099ec6  2024-12-24      -9.99
        491718d  2024-04-01    +100.50            Gift

        """)
  }

  @Test func aMemoThatIsAlsoARefIsTakenByMemoSayingSo() async throws {
    let result = try await transcript(
      LedgerTranscriptTests.setup + "\nledger add expense 1 F8\nledger add expense 2 'F89 fee'\n"
        + "ledger rm f8\nledger rm f89\nledger list")
    #expect(result.status == 0)
    #expect(
      result.transcript == LedgerTranscriptTests.setupTranscript
        + """
        > ledger add expense 1 F8
        Added expense 1.00 'F8' on 2025-03-15 (6775dc7).
        > ledger add expense 2 'F89 fee'
        Added expense 2.00 'F89 fee' on 2025-03-15 (7476cf8).
        > ledger rm f8
        ! note: 'f8' is the name of the transaction 'expense 1.00 'F8' on 2025-03-15'; it also starts the ref of 1 transaction: took the name
        Deleted expense 1.00 'F8' on 2025-03-15.
        > ledger rm f89
        ! note: 'f89' starts the ref of the transaction 'expense 12.50 'Lunch' on 2025-03-15 in Food' and the name of 1 other transaction: took the ref
        Deleted expense 12.50 'Lunch' on 2025-03-15 in Food.
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        7476cf8  2025-03-15      -2.00            F89 fee
        910a2de  2025-03-01  +3,000.00  Work      Salary
        71bb54d  2025-02-20     -40.00  Food      Groceries
        e099ec6  2024-12-24      -9.99
        491718d  2024-04-01    +100.50            Gift

        """)
  }
}
