import Testing
import TravelCore

/// What an import skips: the stored trips widened by the margin, merged, found by time.
@Suite struct RecordedSpansTests {
    static func t(_ seconds: Int64) -> UTCTime { UTCTime(milliseconds: seconds * 1000) }
    static func span(_ start: Int64, _ end: Int64) -> RecordedSpans.Span { .init(start: t(start), end: t(end)) }

    @Test func tripsAreWidenedByTheMarginAndMergedWhereTheyTouch() {
        let spans = RecordedSpans([Self.span(1_000, 2_000), Self.span(100, 200), Self.span(2_100, 2_500)])
        #expect(spans.spans == [Self.span(40, 260), Self.span(940, 2_560)])
    }

    @Test func aFixIsCoveredWithinTheMarginOfATrip() {
        let spans = RecordedSpans([Self.span(100, 200), Self.span(1_000, 2_000)])
        #expect(spans.span(covering: Self.t(39)) == nil)
        #expect(spans.span(covering: Self.t(40)) == 0)
        #expect(spans.span(covering: Self.t(260)) == 0)
        #expect(spans.span(covering: Self.t(261)) == nil)
        #expect(spans.span(covering: Self.t(1_500)) == 1)
        #expect(spans.span(covering: Self.t(2_061)) == nil)
    }

    @Test func aTripInProgressCoversEverythingAfterItsStart() {
        let spans = RecordedSpans([Self.span(100, 200), .init(start: Self.t(1_000), end: UTCTime(milliseconds: .max))])
        #expect(spans.span(covering: UTCTime(milliseconds: .max)) == 1)
        #expect(spans.span(covering: Self.t(10_000_000)) == 1)
        #expect(spans.span(covering: Self.t(900)) == nil)
    }

    @Test func twoFixesEitherSideOfARecordedTripAreSeparatedByIt() {
        let spans = RecordedSpans([Self.span(100, 200)])
        #expect(spans.separate(Self.t(0), Self.t(300)))
        #expect(!spans.separate(Self.t(0), Self.t(30)))
        #expect(!spans.separate(Self.t(270), Self.t(300)))
        #expect(!RecordedSpans([]).separate(Self.t(0), Self.t(300)))
    }
}
