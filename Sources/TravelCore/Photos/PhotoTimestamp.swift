/// When a photo was taken, as its EXIF block records it: the camera's wall clock, and the
/// camera's UTC offset when it wrote one (`OffsetTimeOriginal`, EXIF 2.31 and later).
package struct PhotoTimestamp: Sendable, Hashable {
    /// The camera's local date and time, held as the UTC instant with the same digits.
    package var localTime: UTCTime
    /// The offset the camera recorded, or `nil` when it recorded none (most cameras before 2017).
    package var offset: UTCOffset?

    package init(localTime: UTCTime, offset: UTCOffset?) {
        self.localTime = localTime
        self.offset = offset
    }

    /// The instant the photo was taken: its wall clock read in its own offset, or in `fallback`
    /// (the configured zone, daylight saving time included) when the camera recorded none.
    package func instant(fallback: LocalTimeZone) -> UTCTime {
        if let offset { return UTCTime(milliseconds: localTime.milliseconds - Int64(offset.seconds) * 1000) }
        let (day, millisecondOfDay) = localTime.dayAndTimeOfDay
        let second = fallback.instant(day: day, secondOfDay: Int(millisecondOfDay / 1000))
        return UTCTime(milliseconds: second.milliseconds + millisecondOfDay % 1000)
    }
}
