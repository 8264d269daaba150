package import TravelFormats

/// A reply of `Subscribe`: one `event` (docs/control.md, "Events").
package struct SubscribeReply: ControlReply, Hashable {
    package var event: EventMessage

    package init(event: EventMessage) { self.event = event }

    package var json: JSONValue { ["event": event.json] }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(event: try fields.object("event", EventMessage.init))
    }
}
