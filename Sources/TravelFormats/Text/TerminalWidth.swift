/// How many terminal columns text takes, as a table must count them to line up: East Asian Wide
/// and Fullwidth characters (北京, ｶ) and emoji take two, combining marks and other zero-width
/// scalars none, everything else one (`wcwidth` as terminals apply it, per grapheme cluster).
package enum TerminalWidth {
    /// The columns `text` takes.
    package static func of(_ text: some StringProtocol) -> Int {
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// The columns one grapheme cluster takes: its first scalar's, or two for an emoji shown as
    /// one (a sequence joined by U+200D, or a symbol with the emoji variation selector U+FE0F).
    package static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let base = of(first)
        if base == 1, scalars.count > 1, first.properties.isEmoji,
            scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D })
        {
            return 2
        }
        // A cluster that begins with a zero-width scalar (a lone combining mark) takes the widest
        // of what follows, if anything.
        return base == 0 ? scalars.dropFirst().map(of).max() ?? 0 : base
    }

    /// The columns one scalar takes alone.
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if (0x20..<0x7F).contains(value) { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        // Hangul medial vowels and final consonants join the syllable before them.
        if (0x1160...0x11FF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt, emoji aside.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
