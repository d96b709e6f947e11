import Foundation
import LoopCLI
import Persistence
import Testing

/// Every `habit` command, run through a session on habits created on 2025-02-01: Write
/// (`71bb54d`), Read (`910a2de`) and Swim laps (`f893a2e`), in list order.
@MainActor
@Suite struct HabitTranscriptTests {
  /// 2025-02-01 10:00 in Seoul, when the seeded habits were created.
  let february = Date(timeIntervalSince1970: 1_738_371_600)

  /// An environment whose habits Read, Swim laps and Write were created on 2025-02-01.
  func seeded() async throws -> AppEnvironment {
    let context = try ModelContext(ModelContainer(for: AppEnvironment.models, storage: .inMemory))
    let setup = try await transcript(
      "habit add Read\nhabit add \"Swim laps\"\nhabit add 'Write'",
      environment: transcriptEnvironment(now: february, context: context))
    #expect(
      setup.transcript == """
        > habit add Read
        Added habit 'Read' (910a2de).
        > habit add "Swim laps"
        Added habit 'Swim laps' (f893a2e).
        > habit add 'Write'
        Added habit 'Write' (71bb54d).

        """)
    var environment = try transcriptEnvironment(context: context)
    environment.uuid = seededUUIDs(seed: 2)
    return environment
  }

  @Test func completingRenamingArchivingAndDeleting() async throws {
    let result = try await transcript(
      """
      habit list
      habit done 910
      habit done 910 --on 2025-03-14
      habit done 910 --on 2025-03-13
      habit done f8 --on 2025-03-10
      habit undo 910 --on 2025-03-13
      habit rename 71 "Write 500 words"
      habit archive f8
      habit list
      habit unarchive f8
      habit rm 71 --yes
      habit list
      """, environment: seeded())
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit list
        REF      HABIT      TODAY  STREAK  LONGEST  30 DAYS
        71bb54d  Write      ·      0 days   0 days       0%
        910a2de  Read       ·      0 days   0 days       0%
        f893a2e  Swim laps  ·      0 days   0 days       0%
        > habit done 910
        Done: 'Read' on 2025-03-15. Streak: 1 day.
        > habit done 910 --on 2025-03-14
        Done: 'Read' on 2025-03-14. Streak: 2 days.
        > habit done 910 --on 2025-03-13
        Done: 'Read' on 2025-03-13. Streak: 3 days.
        > habit done f8 --on 2025-03-10
        Done: 'Swim laps' on 2025-03-10.
        > habit undo 910 --on 2025-03-13
        Undone: 'Read' is not done on 2025-03-13.
        > habit rename 71 "Write 500 words"
        Renamed 'Write' to 'Write 500 words'.
        > habit archive f8
        Archived 'Swim laps'.
        > habit list
        REF      HABIT                 TODAY  STREAK  LONGEST  30 DAYS
        71bb54d  Write 500 words       ·      0 days   0 days       0%
        910a2de  Read                  ✓      2 days   2 days       7%
        f893a2e  Swim laps (archived)         0 days    1 day       3%
        > habit unarchive f8
        'Swim laps' is active again.
        > habit rm 71 --yes
        Deleted 'Write 500 words'.
        > habit list
        REF      HABIT      TODAY  STREAK  LONGEST  30 DAYS
        910a2de  Read       ✓      2 days   2 days       7%
        f893a2e  Swim laps  ·      0 days    1 day       3%

        """)
  }

  @Test func offsetAndLimitPrintPartOfTheHabitList() async throws {
    let result = try await transcript(
      "habit list --offset 1 --limit 1\nhabit list --offset 2 --format json", environment: seeded())
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit list --offset 1 --limit 1
        REF      HABIT  TODAY  STREAK  LONGEST  30 DAYS
        910a2de  Read   ·      0 days   0 days       0%
        > habit list --offset 2 --format json
        [
          {
            "days" : [],
            "habit" : {
              "createdAt" : "2025-02-01T01:00:00Z",
              "id" : "F893A2EE-FB32-555E-71C1-8690EE42C90B",
              "name" : "Swim laps"
            }
          }
        ]

        """)
  }

  @Test func daysBeforeAHabitWasAddedAreRecordedAndItsHistoryStartsThere() async throws {
    let result = try await transcript(
      """
      habit add Stretch
      habit done 910 --on 2025-03-10
      habit done 910 --on 2025-03-12
      habit done 910 --on 2025-03-13
      habit done 910 --on 2025-03-14
      habit done 910
      habit done 910 --on 2025-03-16
      habit list
      habit show 910 --weeks 2
      """)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > habit add Stretch
        Added habit 'Stretch' (910a2de).
        > habit done 910 --on 2025-03-10
        Done: 'Stretch' on 2025-03-10.
        > habit done 910 --on 2025-03-12
        Done: 'Stretch' on 2025-03-12.
        > habit done 910 --on 2025-03-13
        Done: 'Stretch' on 2025-03-13.
        > habit done 910 --on 2025-03-14
        Done: 'Stretch' on 2025-03-14. Streak: 3 days.
        > habit done 910
        Done: 'Stretch' on 2025-03-15. Streak: 4 days.
        > habit done 910 --on 2025-03-16
        ! test:7: error: '2025-03-16' is in the future: today is 2025-03-15.
        > habit list
        REF      HABIT    TODAY  STREAK  LONGEST  30 DAYS
        910a2de  Stretch  ✓      4 days   4 days      83%
        > habit show 910 --weeks 2
        Stretch 910a2de
        created         2025-03-15
        current streak  4 days
        longest streak  4 days
        last 30 days    5 of 6 days (83%)

        2 weeks from 2025-03-03 to 2025-03-16
        Mon    ■
        Tue    ·
        Wed    ■
        Thu    ■
        Fri    ■
        Sat    ■
        Sun
        ■ done  · missed

        """)
  }

  @Test func showingAHabitDrawsItsStreaksAndHeatMap() async throws {
    let result = try await transcript(
      """
      habit done 910 --on 2025-03-14
      habit done 910
      habit show 910 --weeks 4
      """, environment: seeded())
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit done 910 --on 2025-03-14
        Done: 'Read' on 2025-03-14. Streak: 1 day.
        > habit done 910
        Done: 'Read' on 2025-03-15. Streak: 2 days.
        > habit show 910 --weeks 4
        Read 910a2de
        created         2025-02-01
        current streak  2 days
        longest streak  2 days
        last 30 days    2 of 30 days (7%)

        4 weeks from 2025-02-17 to 2025-03-16
        Mon  · · · ·
        Tue  · · · ·
        Wed  · · · ·
        Thu  · · · ·
        Fri  · · · ■
        Sat  · · · ■
        Sun  · · ·
        ■ done  · missed

        """)
  }

  @Test func habitsAsJSON() async throws {
    let result = try await transcript(
      """
      habit done 910
      habit archive f8
      habit rm 71 --yes
      habit list --format json
      habit show 910 --weeks 1 --format json
      """, environment: seeded())
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit done 910
        Done: 'Read' on 2025-03-15. Streak: 1 day.
        > habit archive f8
        Archived 'Swim laps'.
        > habit rm 71 --yes
        Deleted 'Write'.
        > habit list --format json
        [
          {
            "days" : [
              "2025-03-15"
            ],
            "habit" : {
              "createdAt" : "2025-02-01T01:00:00Z",
              "id" : "910A2DEC-8902-5CC1-BEEB-8DA1658EEC67",
              "name" : "Read"
            }
          },
          {
            "days" : [],
            "habit" : {
              "archivedAt" : "2025-03-15T01:00:00Z",
              "createdAt" : "2025-02-01T01:00:00Z",
              "id" : "F893A2EE-FB32-555E-71C1-8690EE42C90B",
              "name" : "Swim laps"
            }
          }
        ]
        > habit show 910 --weeks 1 --format json
        {
          "days" : [
            "2025-03-15"
          ],
          "habit" : {
            "createdAt" : "2025-02-01T01:00:00Z",
            "id" : "910A2DEC-8902-5CC1-BEEB-8DA1658EEC67",
            "name" : "Read"
          },
          "heatMap" : {
            "firstWeekday" : 2,
            "weeks" : [
              [
                {
                  "day" : "2025-03-10",
                  "status" : "missed"
                },
                {
                  "day" : "2025-03-11",
                  "status" : "missed"
                },
                {
                  "day" : "2025-03-12",
                  "status" : "missed"
                },
                {
                  "day" : "2025-03-13",
                  "status" : "missed"
                },
                {
                  "day" : "2025-03-14",
                  "status" : "missed"
                },
                {
                  "day" : "2025-03-15",
                  "status" : "completed"
                },
                {
                  "day" : "2025-03-16",
                  "status" : "future"
                }
              ]
            ]
          },
          "stats" : {
            "completedDays" : 1,
            "completionRate" : 0.03333333333333333,
            "currentStreak" : 1,
            "longestStreak" : 1,
            "trackedDays" : 30
          }
        }

        """)
  }

  @Test func removingAHabitInAScriptNeedsYes() async throws {
    let result = try await transcript("habit rm 71\nhabit list", environment: seeded())
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > habit rm 71
        ! test:1: error: deleting 'Write' needs a confirmation
        ! add --yes to delete without asking: 'habit rm 71 --yes'
        > habit list
        REF      HABIT      TODAY  STREAK  LONGEST  30 DAYS
        71bb54d  Write      ·      0 days   0 days       0%
        910a2de  Read       ·      0 days   0 days       0%
        f893a2e  Swim laps  ·      0 days   0 days       0%

        """)
  }

  @Test func removingAHabitInteractivelyAsksFirst() async throws {
    let result = try await transcript(
      "habit done 71\nhabit rm 71\nno\nhabit rm 71\ny\nhabit list", mode: .interactive,
      environment: seeded())
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit done 71
        Done: 'Write' on 2025-03-15. Streak: 1 day.
        > habit rm 71
        Delete 'Write' and its 1 completion? This cannot be undone. [y/N] no
        Kept 'Write'.
        > habit rm 71
        Delete 'Write' and its 1 completion? This cannot be undone. [y/N] y
        Deleted 'Write'.
        > habit list
        REF      HABIT      TODAY  STREAK  LONGEST  30 DAYS
        910a2de  Read       ·      0 days   0 days       0%
        f893a2e  Swim laps  ·      0 days   0 days       0%

        """)
  }

  @Test func aHabitIsNamedByItsWholeNameItsStartOrAPartWhereItsRefGoes() async throws {
    let result = try await transcript(
      "habit done read\nhabit done 'SWIM LAPS'\nhabit done wri\nhabit rename laps Swim\nhabit list",
      environment: seeded())
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit done read
        Done: 'Read' on 2025-03-15. Streak: 1 day.
        > habit done 'SWIM LAPS'
        Done: 'Swim laps' on 2025-03-15. Streak: 1 day.
        > habit done wri
        Done: 'Write' on 2025-03-15. Streak: 1 day.
        > habit rename laps Swim
        Renamed 'Swim laps' to 'Swim'.
        > habit list
        REF      HABIT  TODAY  STREAK  LONGEST  30 DAYS
        71bb54d  Write  ✓       1 day    1 day       3%
        910a2de  Read   ✓       1 day    1 day       3%
        f893a2e  Swim   ✓       1 day    1 day       3%

        """)
  }

  @Test func aWordThatStartsSeveralHabitsNamesListsThemAndChangesNothing() async throws {
    let result = try await transcript(
      "habit add Swim\nhabit done sw\nhabit list", environment: seeded())
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > habit add Swim
        Added habit 'Swim' (975835d).
        > habit done sw
        ! test:2: error: the name 'sw' is ambiguous: it matches 2 habits
        !   f893a2e  Swim laps
        !   975835d  Swim
        > habit list
        REF      HABIT      TODAY  STREAK  LONGEST  30 DAYS
        71bb54d  Write      ·      0 days   0 days       0%
        910a2de  Read       ·      0 days   0 days       0%
        f893a2e  Swim laps  ·      0 days   0 days       0%
        975835d  Swim       ·      0 days   0 days       0%

        """)
  }

  @Test func aWordThatIsARefAndANameSaysWhichItTook() async throws {
    let result = try await transcript(
      "habit add F8\nhabit add 'F89 drills'\nhabit done f8\nhabit done f89\nhabit list",
      environment: seeded())
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit add F8
        Added habit 'F8' (975835d).
        > habit add 'F89 drills'
        Added habit 'F89 drills' (987bbcb).
        > habit done f8
        ! note: 'f8' is the name of the habit 'F8'; it also starts the ref of 1 habit: took the name
        Done: 'F8' on 2025-03-15. Streak: 1 day.
        > habit done f89
        ! note: 'f89' starts the ref of the habit 'Swim laps' and the name of 1 other habit: took the ref
        Done: 'Swim laps' on 2025-03-15. Streak: 1 day.
        > habit list
        REF      HABIT       TODAY  STREAK  LONGEST  30 DAYS
        71bb54d  Write       ·      0 days   0 days       0%
        910a2de  Read        ·      0 days   0 days       0%
        f893a2e  Swim laps   ✓       1 day    1 day       3%
        975835d  F8          ✓       1 day    1 day     100%
        987bbcb  F89 drills  ·      0 days   0 days       0%

        """)
  }

  @Test func badHabitCommandsChangeNothing() async throws {
    let result = try await transcript(
      """
      habit done 910
      habit done 910
      habit undo 910 --on 2025-03-01
      habit done 910 --on 2025-3-1
      habit done 910 --on 2025-03-16
      habit done 910 --on 2025-02-30
      habit done zz
      habit done 5
      habit done
      habit done 910 911
      habit done 910 --at 2025-03-01
      habit add "  "
      habit rename 910 ""
      habit archive f8
      habit archive f8
      habit done f8
      habit unarchive 910
      habit show 910 --weeks 0
      habit show 910 --weeks many
      habit list
      """, environment: seeded())
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > habit done 910
        Done: 'Read' on 2025-03-15. Streak: 1 day.
        > habit done 910
        ! test:2: error: 'Read' is already done on 2025-03-15.
        > habit undo 910 --on 2025-03-01
        ! test:3: error: 'Read' is not done on 2025-03-01.
        > habit done 910 --on 2025-3-1
        ! test:4: error: '2025-3-1' is not a date
        ! write dates as YYYY-MM-DD, such as 2025-03-01
        > habit done 910 --on 2025-03-16
        ! test:5: error: '2025-03-16' is in the future: today is 2025-03-15.
        > habit done 910 --on 2025-02-30
        ! test:6: error: '2025-02-30' is not a date
        ! write dates as YYYY-MM-DD, such as 2025-03-01
        > habit done zz
        ! test:7: error: no habit has the ref or name 'zz'
        ! 'habit list' shows every habit with its ref
        > habit done 5
        ! test:8: error: no habit has the ref or name '5'
        ! 'habit list' shows every habit with its ref
        > habit done
        ! test:9: error: 'habit done' needs <ref>
        ! usage: habit done <ref> [--on YYYY-MM-DD]
        > habit done 910 911
        ! test:10: error: unexpected argument '911'
        ! usage: habit done <ref> [--on YYYY-MM-DD]
        > habit done 910 --at 2025-03-01
        ! test:11: error: 'habit done' has no option '--at'
        ! usage: habit done <ref> [--on YYYY-MM-DD]
        > habit add "  "
        ! test:12: error: A habit needs a name: the name is empty.
        > habit rename 910 ""
        ! test:13: error: A habit needs a name: the name is empty.
        > habit archive f8
        Archived 'Swim laps'.
        > habit archive f8
        ! test:15: error: 'Swim laps' is already archived.
        > habit done f8
        ! test:16: error: 'Swim laps' is archived: unarchive it to change its completions.
        > habit unarchive 910
        ! test:17: error: 'Read' is not archived.
        > habit show 910 --weeks 0
        ! test:18: error: The heat map shows 1 to 520 weeks: '0' is not one of them.
        > habit show 910 --weeks many
        ! test:19: error: 'many' is not a number of weeks
        ! usage: habit show <ref> [--weeks N] [--format text|json]
        > habit list
        REF      HABIT                 TODAY  STREAK  LONGEST  30 DAYS
        71bb54d  Write                 ·      0 days   0 days       0%
        910a2de  Read                  ✓       1 day    1 day       3%
        f893a2e  Swim laps (archived)         0 days   0 days       0%

        """)
  }
}
