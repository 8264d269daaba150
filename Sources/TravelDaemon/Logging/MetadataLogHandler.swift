package import Logging

/// A log handler that keeps the logger's metadata in its `metadata` property, as every handler of
/// the daemon does (standard error, the journal, the control socket's and the hooks' taps).
package protocol MetadataLogHandler: LogHandler {}

extension MetadataLogHandler {
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
