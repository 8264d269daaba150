package import Logging
internal import ServiceLifecycle
internal import Synchronization
package import TravelCore

/// What makes one uplink: its transport, the streams it sends and how an item goes on the wire.
package struct UplinkChannel: Sendable {
    /// `mqtt` or `traccar`: the name its cursor is kept under, and in `status`.
    package var name: String
    /// The server, for the log and `status` (`mqtt://broker:1883`), without credentials.
    package var server: String
    package var streams: Set<UplinkStream>
    package var window: Int
    package var thinning: UplinkThinning
    package var maximumBacklogAge: Double
    /// The item on the wire, or `nil` for one this uplink does not send; `createdAt`: GPS time now.
    package var encode: @Sendable (_ item: UplinkItem, _ createdAt: UTCTime) -> WireMessage?
    /// A parked vehicle's position, sent every `thinning.heartbeat` seconds.
    package var heartbeat: @Sendable (_ position: RoutePoint, _ createdAt: UTCTime) -> WireMessage
    /// Sent at each (re)connection and when `announceOn` receives `online`, outside the outbox:
    /// Home Assistant's discovery config.
    package var announcement: WireMessage?
    package var announceOn: String?
    package var transport: any UplinkTransport
}

/// One uplink, as `status` shows it.
package struct UplinkStatus: Sendable, Hashable {
    package var name: String
    package var server: String
    package var connected = false
    /// Where the uplink stands: the backlog is what follows it.
    package var cursor = UplinkCursor()
    package var streams: Set<UplinkStream> = []
    package var counters = UplinkCounters()
    package var inFlight = 0
    /// GPS time of the item the server acknowledged last.
    package var lastDelivered: UTCTime?
    package var lastError: String?
    /// Until when the uplink waits after a refusal or failures, if it does.
    package var pausedUntil: ContinuousClock.Instant?
}

/// Sends one uplink's outbox: reads the items after its cursor from the pipeline (the history,
/// committed or buffered), hands them to `UplinkSender`, puts what it returns on the transport,
/// and moves the cursor, kept by the pipeline's next flush, as the server acknowledges. Waits for
/// news after each accepted fix; retries failures with a growing pause; pauses 10 min after a
/// refusal (an unknown device), so a server that will not take the points costs no retry storm.
package final class UplinkService: Service, Sendable {
    private let channel: UplinkChannel
    private let pipeline: TrackingPipeline
    private let logger: Logger
    private let state: Mutex<UplinkStatus>

    /// The pause after a refusal.
    static let refusalPause: Duration = .seconds(600)

    package init(channel: UplinkChannel, pipeline: TrackingPipeline, logger: Logger) {
        self.channel = channel
        self.pipeline = pipeline
        self.logger = logger
        state = Mutex(UplinkStatus(name: channel.name, server: channel.server, streams: channel.streams))
    }

    /// The uplink as it stands, for `status`.
    package var status: UplinkStatus { state.withLock { $0 } }

    private enum Input: Sendable {
        case transport(TransportEvent)
        case news
        case tick
    }

    /// Sends until the daemon stops. A history it cannot read stops this uplink, said in the
    /// log and `status`, never tracking.
    package func run() async {
        let cursor: UplinkCursor
        do {
            cursor = try await pipeline.uplinkCursor(channel.name)
        } catch {
            logger.error("uplink \(channel.name) does not run: cannot read where it stood: \(error)")
            state.withLock { $0.lastError = "\(error)" }
            return
        }
        var loop = Loop(
            sender: UplinkSender(
                window: channel.window,
                thinning: channel.thinning,
                maximumBacklogAge: channel.maximumBacklogAge,
                cursor: cursor
            )
        )
        state.withLock { $0.cursor = cursor }
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        let transport = channel.transport
        if let topic = channel.announceOn { transport.subscribe(topic) }
        transport.start()
        logger.info("uplink \(channel.name) to \(channel.server) starts after \(describe(cursor))")
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in transport.events { input.yield(.transport(event)) }
            }
            group.addTask { [pipeline] in
                for await _ in await pipeline.uplinkNews() { input.yield(.news) }
            }
            group.addTask {
                while (try? await Task.sleep(for: .seconds(1))) != nil { input.yield(.tick) }
            }
            await withGracefulShutdownHandler {
                for await event in inputs {
                    await self.handle(event, loop: &loop)
                }
            } onGracefulShutdown: {
                input.finish()
            }
            transport.stop()
            input.finish()
            group.cancelAll()
        }
        await saveCursor(&loop)
        logger.info("uplink \(channel.name) stopped after \(describe(loop.sender.cursor))")
    }

    /// What the loop keeps between inputs.
    private struct Loop {
        var sender: UplinkSender
        var connected = false
        var savedCursor: UplinkCursor?
        /// Items acknowledged since the cursor was last handed to the pipeline.
        var deliveredSinceSave = 0
        var backoff = Backoff(first: .seconds(1), maximum: .seconds(300))
        /// No sending before this (a pause after failures or a refusal).
        var resumeAt: ContinuousClock.Instant?
    }

    private func handle(_ input: Input, loop: inout Loop) async {
        switch input {
        case .transport(let event):
            await handle(event, loop: &loop)
        case .news:
            break
        case .tick:
            await saveCursor(&loop)
            await heartbeat(&loop)
        }
        await fill(&loop)
        let sender = loop.sender
        state.withLock {
            $0.connected = loop.connected
            $0.cursor = sender.cursor
            $0.counters = sender.counters
            $0.inFlight = sender.inFlight + sender.waitingForRetry
            $0.lastDelivered = sender.lastDelivered.map { UTCTime(milliseconds: $0.key) }
        }
    }

    private func handle(_ event: TransportEvent, loop: inout Loop) async {
        switch event {
        // The transport logs its connections and losses.
        case .connected:
            loop.connected = true
            state.withLock { $0.lastError = nil }
            announce()
        case .disconnected(let reason):
            loop.connected = false
            state.withLock { $0.lastError = reason }
        case .delivered(let tag):
            loop.sender.delivered(tag: tag)
            loop.backoff.reset()
            loop.deliveredSinceSave += 1
            // Draining a backlog: the cursor is kept every window's worth, so a crash resends
            // at most that and what is in flight.
            if loop.deliveredSinceSave >= channel.window { await saveCursor(&loop, promptly: true) }
        case .failed(let tag, let reason):
            loop.sender.failed(tag: tag)
            pause(&loop, for: loop.backoff.next(), because: reason, refused: false)
        case .refused(let tag, let reason):
            loop.sender.refused(tag: tag)
            pause(&loop, for: Self.refusalPause, because: reason, refused: true)
        case .received(let topic, let payload):
            if topic == channel.announceOn, payload == Array("online".utf8) { announce() }
        }
    }

    /// Holds back sending for `pause` (the failed or refused items wait for `retry`), logging the
    /// first failure of an outage and every refusal.
    private func pause(_ loop: inout Loop, for pause: Duration, because reason: String, refused: Bool) {
        let until = ContinuousClock.now + pause
        let firstOfOutage = loop.resumeAt == nil
        loop.resumeAt = max(loop.resumeAt ?? until, until)
        state.withLock {
            $0.lastError = reason
            $0.pausedUntil = loop.resumeAt
        }
        if refused {
            logger.error(
                "uplink \(channel.name): \(channel.server) refused a message: \(reason); sending again in \(pause.logText)"
            )
        } else if firstOfOutage {
            logger.warning("uplink \(channel.name): not delivered: \(reason); retrying in \(pause.logText) and longer")
        }
    }

    /// Sends what waits for a retry once the pause is over, then reads and sends new items while
    /// the window has room.
    private func fill(_ loop: inout Loop) async {
        if let resumeAt = loop.resumeAt {
            guard ContinuousClock.now >= resumeAt else { return }
            loop.resumeAt = nil
            state.withLock { $0.pausedUntil = nil }
        }
        let now = pipeline.eventClock.now()
        for (tag, item) in loop.sender.retry() { send(item, tag: tag, now: now, loop: &loop) }
        // Half a window at a time while messages are in flight: one read of the history per
        // batch, not per acknowledgement.
        let batch = max(1, channel.window / 2)
        while loop.sender.room >= batch || (loop.sender.room > 0 && loop.sender.inFlight == 0) {
            let items: [UplinkItem]
            do {
                items = try await pipeline.uplinkItems(
                    after: loop.sender.readPosition,
                    streams: channel.streams,
                    limit: loop.sender.room
                )
            } catch {
                logger.error("uplink \(channel.name): cannot read the history to send: \(error)")
                return
            }
            guard !items.isEmpty else { return }
            let newest = await pipeline.uplinkPresent().newest
            for (tag, item) in loop.sender.take(items, newest: newest) { send(item, tag: tag, now: now, loop: &loop) }
        }
    }

    private func send(_ item: UplinkItem, tag: UInt64, now: UTCTime?, loop: inout Loop) {
        guard let message = channel.encode(item, now ?? UTCTime(milliseconds: item.key)) else {
            // Nothing this uplink says of the item: done with at once.
            loop.sender.delivered(tag: tag)
            return
        }
        channel.transport.send(message, tag: tag)
    }

    private func heartbeat(_ loop: inout Loop) async {
        guard loop.connected, loop.resumeAt == nil else { return }
        let present = await pipeline.uplinkPresent()
        guard let position = present.position, let now = present.newest,
            loop.sender.heartbeatDue(now: now, parked: present.parked)
        else { return }
        let tag = loop.sender.heartbeatSent(now: now)
        channel.transport.send(channel.heartbeat(position, now), tag: tag)
    }

    private func announce() {
        guard let announcement = channel.announcement else { return }
        // Tag 0 is no item's: its acknowledgement changes nothing.
        channel.transport.send(announcement, tag: 0)
    }

    /// Hands a moved cursor to the pipeline, whose next flush keeps it.
    private func saveCursor(_ loop: inout Loop, promptly: Bool = false) async {
        let cursor = loop.sender.cursor
        loop.deliveredSinceSave = 0
        guard cursor != loop.savedCursor else { return }
        await pipeline.uplinkMoved(channel.name, to: cursor, promptly: promptly)
        loop.savedCursor = cursor
    }

    private func describe(_ cursor: UplinkCursor) -> String {
        let route = cursor[.route]
        return route == Int64.min ? "nothing sent before" : "the point of \(UTCTime(milliseconds: route))"
    }
}
