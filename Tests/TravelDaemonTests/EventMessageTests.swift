import Logging
import Testing
import TravelControl
import TravelCore
import TravelFormats
import TravelMessages

@testable import TravelDaemon

/// One event, one message: the journal entry, a hook's environment and standard input, and the
/// `Subscribe` event `travelctl follow --json` prints are all written from the same
/// `EventMessage`, so they carry the same fields with the same values.
@Suite struct EventMessageTests {
    @Test(arguments: EventKind.allCases)
    func theJournalHooksAndSubscribersGetTheSameFields(kind: EventKind) throws {
        let metadata = Logger.Metadata.event(EventKindTests.sample(kind))
        let event = try #require(TravelEvent(message: "what happened", metadata: metadata))
        let message = event.eventMessage
        #expect(message.kind == kind.name && message.messageID == kind.messageID)

        // Subscribe and follow --json: read back as travelctl reads it.
        let subscribed = ControlEventTap.event(message: "what happened", metadata: metadata, clock: EventClock())
        let followed = try SubscribeReply(
            json: try JSONValue(parsing: SubscribeReply(event: subscribed).json.serializedString())
        )
        #expect(followed.event.fields == message.fields)
        #expect(followed.event.kind == kind.name && followed.event.message == "what happened")
        #expect(followed.event.time == message.time)

        // A hook's standard input: the same fields, the kind as `event`, with its id.
        let input = event.json
        #expect(input["event"] == .string(kind.name) && input["message_id"] == .string(kind.messageID))
        #expect(input["fields"] == .object(message.fields))
        #expect(input["message"] == .string("what happened"))

        // The journal and the environment: the same fields as text.
        let journal = JournalLogHandler.fields(of: message)
        #expect(journal.first == "MESSAGE_ID=\(kind.messageID)")
        #expect(
            event.environment.prefix(3) == [
                "TC_EVENT=\(kind.name)", "TC_MESSAGE=what happened", "TC_MESSAGE_ID=\(kind.messageID)",
            ]
        )
        for (member, (name, text)) in zip(message.fields, message.fieldTexts) {
            #expect(member.key == name)
            let expected = member.value.stringValue ?? (member.value == .null ? "" : member.value.serializedString())
            #expect(text == expected, "\(kind.name).\(name)")
            #expect(journal.contains("\(name.uppercased())=\(text)"), "\(name) in \(journal)")
            #expect(event.environment.contains("TC_\(name.uppercased())=\(text)"), "\(name) in \(event.environment)")
        }
        #expect(journal.count == 1 + kind.fields.count)
    }

    @Test func aLogLineIsAnEventOfKindLogWithTextFields() throws {
        let event = ControlEventTap.event(message: "reloaded", metadata: ["count": "3"], clock: EventClock())
        #expect(event.kind == "log" && event.messageID == nil && event.time == nil)
        #expect(event.json == ["kind": "log", "time": .null, "message": "reloaded", "fields": ["count": "3"]])
    }
}
