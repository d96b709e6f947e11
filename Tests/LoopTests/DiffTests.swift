import Foundation
import Loop
import Testing

private enum Counter {
  struct State: Equatable {
    var count = 0
    var isEven = false
  }

  enum Action: Equatable {
    case incrementTapped
    case queryChanged(String)
    case row(id: Int, action: Row)
    case moved(Int, Int)
  }

  enum Row: Equatable {
    case toggled
    case deleted
    case renamed(String)
  }
}

private struct Todo: Identifiable, Equatable {
  var id: Int
  var title: String
  var isDone = false
  var priority = 1
  var note = ""
}

private struct Todos: Equatable {
  enum Filter {
    case all
    case done
  }

  var todos: IdentifiedArrayOf<Todo>
  var filter = Filter.all
}

private struct Point: Hashable {
  var x: Int
  var y: Int
}

private struct Box<Value> {
  var value: Value
}

private struct Settings: Equatable {
  var a = 1
  var b = 2
  var c = 3
  var d = 4
  var e = 5
  var f = 6
  var g = 7
  var h = 8
  var i = 9
  var j = 10
}

private struct Profile: Equatable {
  var name: String
  var origin = Point(x: 0, y: 0)
  var tags: [String] = []
  var bio = ""
  var birthday: Date?
  var scores: [String: Int] = [:]
  var badges: Set<Int> = []
}

private struct Token: CustomStringConvertible {
  var description: String { "token-42" }
}

private struct Empty {}

private struct AlwaysDifferent: Equatable {
  var value = 1
  static func == (lhs: Self, rhs: Self) -> Bool { false }
}

private class Shape {
  var name = "shape"
}

private final class Square: Shape {
  var side = 2
}

private final class Link {
  var value = 1
  var next: Link?
}

extension Array {
  fileprivate struct Page {
    var number = 1
  }
}

@Suite struct DiffTests {
  // MARK: - Equality

  @Test func equalValuesHaveNoDiff() {
    #expect(Diff.lines(Counter.State(count: 1), Counter.State(count: 1)) == nil)
  }

  @Test func unequalValuesThatDumpAlikeHaveNoDiff() {
    #expect(Diff.lines(AlwaysDifferent(), AlwaysDifferent()) == nil)
    #expect(Diff.lines(Double.nan, Double.nan) == nil)
  }

  // MARK: - Structs

  @Test func changedFieldShowsOneLineSiblingsAsContext() {
    let diff = Diff.lines(Counter.State(count: 0), Counter.State(count: 1))
    #expect(
      diff == """
          Counter.State(
        −   count: 0,
        +   count: 1,
            isEven: false
          )
        """)
  }

  @Test func unchangedMultiLineFieldsCollapse() {
    var profile = Profile(name: "Blob", tags: ["a", "b"])
    profile.origin = Point(x: 1, y: 2)
    var changed = profile
    changed.bio = "Hi"
    #expect(
      Diff.lines(profile, changed) == """
          Profile(
            name: "Blob",
            … (2 unchanged)
        −   bio: "",
        +   bio: "Hi",
            birthday: nil,
            scores: [:],
            badges: Set([])
          )
        """)
  }

  @Test func unchangedFieldsTooLongForOneShortLineCollapse() {
    let profile = Profile(name: String(repeating: "a", count: 80))
    var changed = profile
    changed.bio = "Hi"
    #expect(
      Diff.lines(profile, changed) == """
          Profile(
            … (2 unchanged)
            tags: [],
        −   bio: "",
        +   bio: "Hi",
            birthday: nil,
            scores: [:],
            badges: Set([])
          )
        """)
  }

  @Test func longRunsOfUnchangedSiblingsCollapse() {
    #expect(
      Diff.lines(Settings(), Settings(f: 0)) == """
          Settings(
            … (2 unchanged)
            c: 3,
            d: 4,
            e: 5,
        −   f: 6,
        +   f: 0,
            g: 7,
            h: 8,
            i: 9,
            … (1 unchanged)
          )
        """)
  }

  @Test func nestedChangesKeepTheirPath() {
    var profile = Profile(name: "Blob")
    var changed = profile
    profile.origin.y = 1
    changed.origin.y = 2
    #expect(
      Diff.lines(profile, changed) == """
          Profile(
            name: "Blob",
            origin: Point(
              x: 0,
        −     y: 1
        +     y: 2
            ),
            tags: [],
            bio: "",
            birthday: nil,
            … (2 unchanged)
          )
        """)
  }

  @Test func typeNamesDropEveryModule() {
    #expect(
      Diff.dump(Box(value: Point(x: 1, y: 2))) == """
        Box<Point>(
          value: Point(
            x: 1,
            y: 2
          )
        )
        """)
    #expect(Diff.dump([Int].Page()) == "Array<Int>.Page(\n  number: 1\n)")
  }

  @Test func classesShowTheirSuperclassFieldsFirst() {
    #expect(
      Diff.dump(Square()) == """
        Square(
          name: "shape",
          side: 2
        )
        """)
  }

  @Test func referenceCyclesPrintOnce() {
    let link = Link()
    link.next = link
    #expect(
      Diff.dump(link) == """
        Link(
          value: 1,
          next: Link(↩)
        )
        """)
  }

  // MARK: - Enums

  @Test func differentCasesPrintOldThenNewQualifiedAtTheRoot() {
    #expect(
      Diff.lines(Counter.Action.incrementTapped, Counter.Action.queryChanged("milk")) == """
        − Counter.Action.incrementTapped
        + Counter.Action.queryChanged("milk")
        """)
  }

  @Test func sameCaseRecursesIntoThePayload() {
    let diff = Diff.lines(
      Counter.Action.row(id: 1, action: .toggled), Counter.Action.row(id: 1, action: .deleted))
    #expect(
      diff == """
          Counter.Action.row(
            id: 1,
        −   action: .toggled
        +   action: .deleted
          )
        """)
  }

  @Test func unlabelledPayloadsOmitPositionalLabels() {
    #expect(
      Diff.lines(Counter.Action.moved(1, 2), Counter.Action.moved(1, 3)) == """
          Counter.Action.moved(
            1,
        −   2
        +   3
          )
        """)
  }

  @Test func dumpInlinesASingleOneLinePayload() {
    #expect(
      Diff.dump(Counter.Action.row(id: 7, action: .renamed("Milk"))) == """
        Counter.Action.row(
          id: 7,
          action: .renamed("Milk")
        )
        """)
  }

  // MARK: - Optionals

  @Test func optionalFieldPrintsNilOrTheWrappedValue() {
    let profile = Profile(name: "Blob")
    var changed = profile
    changed.birthday = Date(timeIntervalSince1970: 0)
    #expect(
      Diff.lines(profile, changed) == """
          Profile(
            … (2 unchanged)
            tags: [],
            bio: "",
        −   birthday: nil,
        +   birthday: Date(1970-01-01T00:00:00.000Z),
            scores: [:],
            badges: Set([])
          )
        """)
  }

  @Test func valueReplacedByNilPrintsWhole() {
    #expect(
      Diff.lines(Optional(Point(x: 0, y: 0)), nil) == """
        − Point(
        −   x: 0,
        −   y: 0
        − )
        + nil
        """)
  }

  @Test func bothSomeDiffsTheWrappedValues() {
    let diff = Diff.lines(Optional(Point(x: 0, y: 0)), Optional(Point(x: 0, y: 1)))
    #expect(
      diff == """
          Point(
            x: 0,
        −   y: 0
        +   y: 1
          )
        """)
  }

  // MARK: - Arrays

  @Test func changedRowAmongTenThousandPrintsOnlyThatRow() {
    let todos = IdentifiedArrayOf<Todo>(
      uniqueElements: (0..<10_000).map { Todo(id: $0, title: "Todo \($0)") })
    var changed = Todos(todos: todos)
    changed.todos[id: 42]?.isDone = true
    #expect(
      Diff.lines(Todos(todos: todos), changed) == """
          Todos(
            todos: [
              … (42 unchanged)
              Todo(
                id: 42,
                title: "Todo 42",
        −       isDone: false,
        +       isDone: true,
                priority: 1,
                note: ""
              ),
              … (9,957 unchanged)
            ],
            filter: .all
          )
        """)
  }

  @Test func identifiedRowsAreInsertedAndRemovedByID() {
    let todos: IdentifiedArrayOf<Todo> = [
      Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs"), Todo(id: 3, title: "Tea"),
    ]
    var changed = todos
    changed.remove(id: 1)
    changed.append(Todo(id: 4, title: "Jam"))
    #expect(
      Diff.lines(todos, changed) == """
          [
        −   Todo(
        −     id: 1,
        −     title: "Milk",
        −     isDone: false,
        −     priority: 1,
        −     note: ""
        −   ),
            … (2 unchanged)
        +   Todo(
        +     id: 4,
        +     title: "Jam",
        +     isDone: false,
        +     priority: 1,
        +     note: ""
        +   )
          ]
        """)
  }

  @Test func identifiableElementsOfPlainArraysMatchByID() {
    let todos = [Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs")]
    let changed = [
      Todo(id: 0, title: "Jam"), Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Egg"),
    ]
    #expect(
      Diff.lines(todos, changed) == """
          [
        +   Todo(
        +     id: 0,
        +     title: "Jam",
        +     isDone: false,
        +     priority: 1,
        +     note: ""
        +   ),
            … (1 unchanged)
            Todo(
              id: 2,
        −     title: "Eggs",
        +     title: "Egg",
              isDone: false,
              priority: 1,
              note: ""
            )
          ]
        """)
  }

  @Test func movedRowsPrintAsRemovedAndInserted() {
    let todos: IdentifiedArrayOf<Todo> = [
      Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs"), Todo(id: 3, title: "Tea"),
    ]
    var changed = todos
    changed.sort { $0.id > $1.id }
    changed.sort { $0.id == 2 && $1.id != 2 }
    #expect(changed.ids == [2, 3, 1])
    #expect(
      Diff.lines(todos, changed) == """
          [
        −   Todo(
        −     id: 1,
        −     title: "Milk",
        −     isDone: false,
        −     priority: 1,
        −     note: ""
        −   ),
            … (2 unchanged)
        +   Todo(
        +     id: 1,
        +     title: "Milk",
        +     isDone: false,
        +     priority: 1,
        +     note: ""
        +   )
          ]
        """)
  }

  @Test func elementsWithDuplicateIDsMatchByPosition() {
    let todos = [Todo(id: 1, title: "Milk"), Todo(id: 1, title: "Eggs")]
    var changed = todos
    changed[1].isDone = true
    #expect(
      Diff.lines(todos, changed) == """
          [
            … (1 unchanged)
            Todo(
              id: 1,
              title: "Eggs",
        −     isDone: false,
        +     isDone: true,
              priority: 1,
              note: ""
            )
          ]
        """)
  }

  @Test func emptyArrayGainingIdentifiableElementsShowsThemInserted() {
    #expect(
      Diff.lines([Todo](), [Todo(id: 1, title: "Milk")]) == """
          [
        +   Todo(
        +     id: 1,
        +     title: "Milk",
        +     isDone: false,
        +     priority: 1,
        +     note: ""
        +   )
          ]
        """)
  }

  @Test func shortArraysOfPrimitivesAlignByCommonSubsequence() {
    #expect(
      Diff.lines([1, 2, 3], [1, 3, 4]) == """
          [
            1,
        −   2,
            3,
        +   4
          ]
        """)
  }

  @Test func unchangedElementsFarFromAChangeCollapse() {
    let numbers = Array(0..<20)
    var changed = numbers
    changed[10] = 100
    #expect(
      Diff.lines(numbers, changed) == """
          [
            … (7 unchanged)
            7,
            8,
            9,
        −   10,
        +   100,
            11,
            12,
            13,
            … (6 unchanged)
          ]
        """)
  }

  @Test func longArraysAlignByPosition() {
    let numbers = Array(0..<400)
    var changed = numbers
    changed[0] = -1
    changed[399] = -1
    #expect(
      Diff.lines(numbers, changed) == """
          [
        −   0,
        +   -1,
            1,
            2,
            3,
            … (392 unchanged)
            396,
            397,
            398,
        −   399
        +   -1
          ]
        """)
  }

  @Test func changedStructElementsShowTheFieldThatChanged() {
    let points = [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 2)]
    var changed = points
    changed[1].y = 5
    #expect(
      Diff.lines(points, changed) == """
          [
            … (1 unchanged)
            Point(
              x: 1,
        −     y: 1
        +     y: 5
            ),
            … (1 unchanged)
          ]
        """)
  }

  @Test func appendedElementsGiveTheLastSharedLineAComma() {
    #expect(
      Diff.lines(["a"], ["a", "b"]) == """
          [
            "a",
        +   "b"
          ]
        """)
  }

  // MARK: - Dictionaries and sets

  @Test func dictionariesDiffBySortedKey() {
    let scores = ["zed": 1, "amy": 2, "bob": 3]
    let changed = ["amy": 2, "bob": 4, "cat": 5]
    #expect(
      Diff.lines(scores, changed) == """
          [
            "amy": 2,
        −   "bob": 3,
        +   "bob": 4,
        +   "cat": 5
        −   "zed": 1
          ]
        """)
  }

  @Test func comparableKeysSortByValue() {
    #expect(
      Diff.dump([10: "ten", 9: "nine", -1: "minus one"]) == """
        [
          -1: "minus one",
          9: "nine",
          10: "ten"
        ]
        """)
  }

  @Test func dictionaryKeysRenderOnOneLine() {
    #expect(
      Diff.dump([Point(x: 1, y: 2): "a"]) == """
        [
          Point(x: 1, y: 2): "a"
        ]
        """)
  }

  @Test func setsShowRemovedAndInsertedElementsInOrder() {
    #expect(
      Diff.lines(Set([3, 1, 2]), Set([4, 1, 3])) == """
          Set([
            1,
        −   2,
            3,
        +   4
          ])
        """)
  }

  // MARK: - Strings

  @Test func stringsAreQuotedWithEscapes() {
    #expect(Diff.dump("a\"b\\c\td\u{1}") == #""a\"b\\c\td\u{1}""#)
    #expect(Diff.dump(Character("\"")) == #""\"""#)
  }

  @Test func multiLineStringsDumpAsBlocks() {
    #expect(
      Diff.dump(Box(value: "one\ntwo \"\"\" \\\n")) == #"""
        Box<String>(
          value: """
            one
            two \""" \\

            """
        )
        """#)
  }

  @Test func multiLineStringsDiffByLine() {
    let text = (1...12).map { "line \($0)" }.joined(separator: "\n")
    let changed = text.replacingOccurrences(of: "line 6", with: "line six")
    #expect(
      Diff.lines(Box(value: text), Box(value: changed)) == """
          Box<String>(
            value: \"""
              … (2 unchanged)
              line 3
              line 4
              line 5
        −     line 6
        +     line six
              line 7
              line 8
              line 9
              … (3 unchanged)
              \"""
          )
        """)
  }

  // MARK: - Leaf values

  @Test func datesRenderAsISO8601() {
    let date = Date(timeIntervalSince1970: 1_795_968_000.25)
    #expect(Diff.dump(date) == "Date(2026-11-29T16:00:00.250Z)")
  }

  @Test func uuidsRenderAsTheirString() {
    let uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    #expect(Diff.dump(uuid) == "UUID(00000000-0000-0000-0000-000000000001)")
  }

  @Test func urlsRenderAsTheirAbsoluteString() {
    let url = URL(fileURLWithPath: "/tmp/a b.txt")
    #expect(Diff.dump(url) == "URL(file:///tmp/a%20b.txt)")
  }

  @Test func numbersBooleansAndCharactersRenderPlainly() {
    #expect(
      Diff.dump((1, 2.5, true, Character("x"), UInt8(255))) == """
        (
          1,
          2.5,
          true,
          "x",
          255
        )
        """)
  }

  @Test func describableValuesWithoutChildrenRenderByDescription() {
    #expect(Diff.dump(Token()) == "token-42")
    #expect(Diff.dump(Duration.milliseconds(1500)) == "1.5 seconds")
  }

  @Test func otherFoundationValuesRenderOnOneLine() {
    #expect(
      Diff.dump(
        (Decimal(string: "1.25"), TimeZone(identifier: "Europe/Paris"), Locale(identifier: "en_US"))
      )
        == """
        (
          1.25,
          TimeZone(Europe/Paris),
          Locale(en_US)
        )
        """)
  }

  @Test func dataRendersItsBytes() {
    #expect(Diff.dump(Data([0, 15, 255])) == "Data(3 bytes: 0x000fff)")
  }

  @Test func emptyValuesRenderOnOneLine() {
    #expect(
      Diff.dump(([Int](), [String: Int](), Set<Int>(), Empty())) == """
        (
          [],
          [:],
          Set([]),
          Empty()
        )
        """)
  }

  // MARK: - Dump

  @Test func dumpRendersTheWholeValueWithoutMarkers() {
    #expect(
      Diff.dump(Profile(name: "Blob", tags: ["a"], scores: ["x": 1])) == """
        Profile(
          name: "Blob",
          origin: Point(
            x: 0,
            y: 0
          ),
          tags: [
            "a"
          ],
          bio: "",
          birthday: nil,
          scores: [
            "x": 1
          ],
          badges: Set([])
        )
        """)
  }

  @Test func dumpQualifiesTheRootEnumCase() {
    #expect(Diff.dump(Counter.Action.incrementTapped) == "Counter.Action.incrementTapped")
    #expect(
      Diff.dump(Counter.Action.queryChanged("milk")) == #"Counter.Action.queryChanged("milk")"#)
  }

  // MARK: - Type names

  @Test func aTypeCanChooseTheNameItShows() {
    #expect(
      Diff.lines(Named<Todo>(raw: 1, note: ""), Named<Todo>(raw: 2, note: "")) == """
          Todo.ID(
        −   raw: 1,
        +   raw: 2,
            note: ""
          )
        """)
  }
}

/// A generic type that shows under the name its users write for it.
private struct Named<Model>: Equatable, CustomDiffTypeName {
  var raw: Int
  var note: String

  static var diffTypeName: String { "\(Model.self).ID" }
}
