package import TravelControl
package import TravelCore

extension VarlinkCall {
    /// An optional ISO-8601 instant parameter.
    package func instant(_ name: String) throws(VarlinkError) -> UTCTime? {
        guard let text = try string(name) else { return nil }
        guard let time = UTCTime(iso8601: text) else { throw .invalidParameter(name) }
        return time
    }

    /// An optional `since`/`until`: a date (`2026-01-09`, a local day of the daemon's zone) or an
    /// ISO-8601 instant.
    package func timeBound(_ name: String) throws(VarlinkError) -> TimeBound? {
        guard let text = try string(name) else { return nil }
        guard let bound = TimeBound(parsing: text) else { throw .invalidParameter(name) }
        return bound
    }
}
