package import TravelControl
package import TravelCore

extension VarlinkCall {
    /// An optional ISO-8601 instant parameter.
    package func instant(_ name: String) throws(VarlinkError) -> UTCTime? {
        guard let text = try string(name) else { return nil }
        guard let time = UTCTime(iso8601: text) else { throw .invalidParameter(name) }
        return time
    }
}
