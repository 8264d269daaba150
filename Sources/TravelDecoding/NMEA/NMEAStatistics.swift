/// What an NMEA decoder saw, so nothing is silently lost from the statistics.
package struct NMEAStatistics: Sendable, Hashable {
    /// Sentences with a valid checksum that were decoded (or deliberately ignored, like GSV detail).
    package var sentencesOK = 0
    /// Sentences whose checksum did not match; dropped.
    package var badChecksum = 0
    /// Sentences without a `*hh` checksum; dropped (as gpsd does).
    package var missingChecksum = 0
    /// Sentences with a good checksum but an unreadable field (hour 25, latitude 91°); dropped.
    package var malformed = 0
    /// Well-formed sentences we do not decode: proprietary `$P…`, AIS `!…`, other types.
    package var unknown = 0
    /// Bytes that were not part of any complete sentence: noise, truncated and over-long lines.
    package var junkBytes = 0
    /// `#` comment lines (as in recorded log files); skipped.
    package var commentLines = 0
    /// Epochs emitted.
    package var epochs = 0
    /// Epochs whose sentences arrived after the epoch was emitted early (`NMEADecoder.flushEpoch`);
    /// dropped.
    package var lateEpochs = 0

    package init() {}

    /// All sentences that reached a line end, whatever their fate.
    package var sentences: Int { sentencesOK + badChecksum + missingChecksum + malformed + unknown }
}
