import Loop
import Testing

private enum Choice: Equatable {
  case archive, delete
}

@Suite struct AlertStateTests {
  @Test func aFailureShowsTheErrorsSentenceAndAsksNothing() {
    struct Offline: Error, CustomStringConvertible {
      var description: String { "The server cannot be reached." }
    }
    let alert = AlertState<Choice>.failure(Offline())
    #expect(String(state: alert.title) == "The server cannot be reached.")
    #expect(alert.message == nil)
    #expect(alert.buttons.isEmpty)
  }

  @Test func textsAreEqualWhenTheyReadTheSame() {
    #expect(TextState("Delete 'Read'?") == TextState(verbatim: "Delete 'Read'?"))
    #expect(TextState("Delete ") + TextState("'Read'?") == TextState("Delete 'Read'?"))
    #expect(TextState("Delete") != TextState("Keep"))
    #expect(String(state: TextState("a") + TextState("b")) == "ab")
    #expect(TextState("a").hashValue == TextState(verbatim: "a").hashValue)
  }

  @Test func aButtonWithAnActionSendsIt() {
    let button = ButtonState(role: .destructive, action: Choice.delete) { TextState("Delete") }
    var sent: [Choice?] = []
    button.withAction { sent.append($0) }
    #expect(sent == [.delete])
    #expect(button.role == .destructive)
    #expect(button.label == TextState("Delete"))
    #expect(button.action == .send(.delete))
    #expect(button.action.action == .delete)
  }

  @Test func aButtonWithoutAnActionSendsNothing() {
    let button = ButtonState<Choice>(role: .cancel) { TextState("Keep") }
    var sent: [Choice?] = []
    button.withAction { sent.append($0) }
    #expect(sent == [nil])
    #expect(button.role == .cancel)
    #expect(ButtonState<Choice> { TextState("OK") }.role == nil)
  }

  @Test func buttonsAreEqualWhenTheirLabelRoleAndActionAre() {
    let delete = ButtonState(role: .destructive, action: Choice.delete) { TextState("Delete") }
    #expect(
      delete == ButtonState(role: .destructive, action: .send(.delete)) { TextState("Delete") })
    #expect(delete != ButtonState(action: Choice.delete) { TextState("Delete") })
    #expect(
      delete != ButtonState(role: .destructive, action: Choice.archive) { TextState("Delete") })
    #expect(
      delete != ButtonState(role: .destructive, action: Choice.delete) { TextState("Remove") })
  }

  @Test func mappingAButtonMapsItsActionAndKeepsTheRest() {
    let button = ButtonState(role: .destructive, action: Choice.delete) { TextState("Delete") }
    let mapped = button.map { $0.map { "\($0)" } }
    #expect(mapped == ButtonState(role: .destructive, action: "delete") { TextState("Delete") })
    #expect(ButtonState<Choice> { TextState("OK") }.map { $0.map { "\($0)" } }.action.action == nil)
  }

  @Test func theBuilderTakesIfElseAndForAmongTheButtons() {
    func alert(canArchive: Bool, extra: [String]) -> AlertState<String> {
      AlertState {
        TextState("Delete?")
      } actions: {
        ButtonState(role: .destructive, action: "delete") { TextState("Delete") }
        if canArchive {
          ButtonState(action: "archive") { TextState("Archive") }
        }
        if extra.isEmpty {
          ButtonState(role: .cancel) { TextState("Keep") }
        } else {
          ButtonState(role: .cancel) { TextState("Keep all") }
        }
        for name in extra {
          ButtonState(action: name) { TextState(name) }
        }
        if #available(macOS 14, *) {
          ButtonState(action: "later") { TextState("Later") }
        }
      }
    }
    #expect(
      alert(canArchive: true, extra: []).buttons.map(\.label) == [
        TextState("Delete"), TextState("Archive"), TextState("Keep"), TextState("Later"),
      ])
    #expect(
      alert(canArchive: false, extra: ["x", "y"]).buttons.map(\.label) == [
        TextState("Delete"), TextState("Keep all"), TextState("x"), TextState("y"),
        TextState("Later"),
      ])
  }

  @Test func anAlertHoldsItsTitleButtonsAndMessage() {
    let alert = AlertState {
      TextState("Delete 'Read'?")
    } actions: {
      ButtonState(role: .destructive, action: Choice.delete) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Keep") }
    } message: {
      TextState("This cannot be undone.")
    }
    #expect(alert.title == TextState("Delete 'Read'?"))
    #expect(alert.message == TextState("This cannot be undone."))
    #expect(alert.buttons.map(\.role) == [.destructive, .cancel])
    #expect(AlertState<Choice> { TextState("Saved.") }.buttons.isEmpty)
    #expect(AlertState<Choice> { TextState("Saved.") }.message == nil)
  }

  @Test func alertsAreEqualWhenTheyReadAndAnswerTheSame() {
    func alert(_ title: String, _ action: Choice) -> AlertState<Choice> {
      AlertState {
        TextState(title)
      } actions: {
        ButtonState(action: action) { TextState("Yes") }
      }
    }
    #expect(alert("Delete?", .delete) == alert("Delete?", .delete))
    #expect(alert("Delete?", .delete) != alert("Delete?", .archive))
    #expect(alert("Delete?", .delete) != alert("Remove?", .delete))
    #expect(Set([alert("Delete?", .delete), alert("Delete?", .delete)]).count == 1)
  }

  @Test func mappingAnAlertMapsEveryButtonAndKeepsTheTexts() {
    let alert = AlertState {
      TextState("Delete?")
    } actions: {
      ButtonState(action: Choice.delete) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Keep") }
    } message: {
      TextState("For good.")
    }
    let mapped = alert.map { $0 == .delete ? 1 : nil }
    #expect(
      mapped
        == AlertState {
          TextState("Delete?")
        } actions: {
          ButtonState(action: 1) { TextState("Delete") }
          ButtonState(role: .cancel) { TextState("Keep") }
        } message: {
          TextState("For good.")
        })
  }

  @Test func aDialogShowsItsTitleAsThePlatformSeesFitUnlessTold() {
    let dialog = ConfirmationDialogState {
      TextState("Share")
    } actions: {
      ButtonState(action: Choice.archive) { TextState("Archive") }
    } message: {
      TextState("Pick one.")
    }
    #expect(dialog.titleVisibility == .automatic)
    #expect(dialog.title == TextState("Share"))
    #expect(dialog.message == TextState("Pick one."))
    #expect(dialog.buttons == [ButtonState(action: Choice.archive) { TextState("Archive") }])
    let visible = ConfirmationDialogState<Choice>(titleVisibility: .visible) { TextState("Share") }
    #expect(visible.titleVisibility == .visible)
    #expect(visible != ConfirmationDialogState<Choice> { TextState("Share") })
  }

  @Test func mappingADialogMapsEveryButtonAndKeepsTheRest() {
    let dialog = ConfirmationDialogState(titleVisibility: .hidden) {
      TextState("Share")
    } actions: {
      ButtonState(action: Choice.archive) { TextState("Archive") }
    }
    #expect(
      dialog.map { $0.map { "\($0)" } }
        == ConfirmationDialogState(titleVisibility: .hidden) {
          TextState("Share")
        } actions: {
          ButtonState(action: "archive") { TextState("Archive") }
        })
  }

  @Test func anAlertDumpsItsTextsQuoted() {
    let alert = AlertState<Choice> {
      TextState("Delete?")
    } actions: {
      ButtonState(role: .cancel) { TextState("Keep") }
    }
    #expect(
      Diff.dump(alert) == """
        AlertState<Choice>(
          buttons: [
            ButtonState<Choice>(
              action: ButtonStateAction<Choice>(
                action: nil
              ),
              label: TextState("Keep"),
              role: .cancel
            )
          ],
          message: nil,
          title: TextState("Delete?")
        )
        """)
  }
}
