/// The time spans the history already holds (its trips), which an import skips: a log
/// overlapping recorded hours only fills the gaps between them, whatever order logs come in.
///
/// A fix is covered when its time falls within a span widened by `margin` on both sides, so the
/// parked fixes next to a recorded trip cannot start a trip of their own against its ends.
package struct RecordedSpans: Sendable {
    /// A closed time span, `start` through `end`.
    package struct Span: Sendable, Hashable {
        package var start: UTCTime
        package var end: UTCTime

        package init(start: UTCTime, end: UTCTime) {
            self.start = start
            self.end = end
        }
    }

    /// How far on either side of a recorded trip a fix still counts as recorded.
    package static let margin: Int64 = 60_000

    /// The widened spans, sorted and merged where they touch.
    package let spans: [Span]

    /// `recorded`, in any order, each widened by `margin`; an open end (a trip in progress) is
    /// `UTCTime(milliseconds: .max)`.
    package init(_ recorded: [Span], margin: Int64 = Self.margin) {
        var merged: [Span] = []
        for span in recorded.sorted(by: { $0.start < $1.start }) {
            let (start, end) = (span.start.milliseconds, span.end.milliseconds)
            let widened = Span(
                start: UTCTime(milliseconds: start.subtractingClamped(margin)),
                end: UTCTime(milliseconds: end.addingClamped(margin))
            )
            if let last = merged.last, widened.start <= last.end {
                merged[merged.count - 1].end = max(last.end, widened.end)
            } else {
                merged.append(widened)
            }
        }
        spans = merged
    }

    /// The index of the span that covers `time`, if any.
    package func span(covering time: UTCTime) -> Int? {
        let index = firstSpan(endingAtOrAfter: time)
        return index < spans.count && spans[index].start <= time ? index : nil
    }

    /// Whether a recorded span lies between two uncovered times `earlier` and `later`: a trip
    /// found in the log must not bridge it.
    package func separate(_ earlier: UTCTime, _ later: UTCTime) -> Bool {
        let index = firstSpan(endingAtOrAfter: earlier)
        return index < spans.count && spans[index].start < later
    }

    /// Binary search: the first span whose end is at or after `time`.
    private func firstSpan(endingAtOrAfter time: UTCTime) -> Int {
        var (low, high) = (0, spans.count)
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].end < time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension Int64 {
    fileprivate func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    fileprivate func subtractingClamped(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? .min : difference
    }
}
