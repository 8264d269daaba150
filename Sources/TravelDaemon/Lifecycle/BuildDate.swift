internal import TravelCore

/// When this version of the program was built, at the latest: no fix received live can be older.
enum BuildDate {
    /// Midnight UTC of the day this source was last released; set with the version number
    /// (`travel-companiond --version`). An older date would only weaken the floor, never
    /// move a real date, so a release that forgets it stays correct.
    static let floor = UTCTime(year: 2026, month: 11, day: 24)!
}
