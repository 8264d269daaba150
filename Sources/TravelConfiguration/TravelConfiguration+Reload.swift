extension TravelConfiguration {
    /// `self` as a reload may apply it over `running`: the keys opened only at start (the
    /// source, the database, the control socket, the uplinks) keep their running values, and
    /// `restartOnly` names those this file changes, for the "takes effect when the daemon
    /// restarts" notice.
    package func applicable(over running: TravelConfiguration) -> (applied: TravelConfiguration, restartOnly: [String])
    {
        var applied = self
        var changed: [String] = []
        func keep<Value: Equatable>(_ key: String, _ path: WritableKeyPath<TravelConfiguration, Value>) {
            if applied[keyPath: path] != running[keyPath: path] { changed.append(key) }
            applied[keyPath: path] = running[keyPath: path]
        }
        keep("[Source] URL", \.source.url)
        keep("[Storage] Database", \.storage.database)
        keep("[Control] Socket", \.control.socket)
        keep("[MQTT]", \.mqtt)
        keep("[Traccar]", \.traccar)
        return (applied, changed)
    }
}
