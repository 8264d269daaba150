import Testing
import TravelFormats

/// Terminal columns, as `travelctl`'s tables align by them (issue 26: CJK place names pushed the
/// columns after them out of line).
@Suite struct TerminalWidthTests {
    @Test(arguments: [
        ("Home", 4), ("", 0), ("北京", 4), ("海淀区", 6), ("Beijing 北京", 12), ("ｶﾀｶﾅ", 4), ("ＡＢ", 4),
        ("서울", 4), ("Poreč", 5), ("Pore\u{30C}", 4), ("e\u{301}\u{302}", 1), ("\u{200B}", 0),
        ("🚗", 2), ("❤️", 2), ("👩‍💻", 2), ("→", 1), ("Ελλάδα", 6), ("東京 (とうきょう)", 17),
    ])
    func columns(_ text: String, _ expected: Int) {
        #expect(TerminalWidth.of(text) == expected, "\(text)")
    }
}
