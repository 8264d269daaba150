/// One hook program and its arguments, as a `[Hooks]` key writes it. Hooks run without a shell,
/// so the words are split here, by these rules only:
/// - words are separated by spaces or tabs;
/// - `"…"` and `'…'` make one word of what they enclose, spaces included, and may join text
///   around them (`--name="a b"` is one word);
/// - inside double quotes a backslash escapes `"` and `\`; outside quotes a backslash takes the
///   next character as it is; inside single quotes nothing is special;
/// - an unquoted `;` standing alone as a word ends one command and starts the next;
/// - the first word is the program's absolute path (no `PATH` search, no `~`, no variables, no
///   globbing: the text is taken as written).
package struct HookCommand: Sendable, Hashable, CustomStringConvertible {
    /// The program's absolute path.
    package var executable: String
    /// The arguments after it (not including the program itself).
    package var arguments: [String]

    package init(executable: String, arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }

    /// The commands of one `[Hooks]` value (`;` separates them); `nil` when a quote is left open,
    /// a backslash ends the text, a command is empty or its program is not an absolute path.
    /// The empty text is no command.
    package static func parseList(_ text: String) -> [HookCommand]? {
        guard let words = split(text) else { return nil }
        var commands: [HookCommand] = []
        var current: [String] = []
        for word in words + [.separator] {
            switch word {
            case .word(let text): current.append(text)
            case .separator:
                guard let program = current.first else {
                    if commands.isEmpty && words.isEmpty { return [] }
                    return nil
                }
                guard program.hasPrefix("/") else { return nil }
                commands.append(HookCommand(executable: program, arguments: Array(current.dropFirst())))
                current = []
            }
        }
        return commands
    }

    /// Whether `text` has an unquoted `#` after a space or tab: a comment written after the
    /// commands, which would otherwise become arguments (`"#1"` or `\#1` passes a `#`).
    package static func hasUnquotedComment(_ text: String) -> Bool {
        var afterBlank = false
        var quote: Character?
        var escaped = false
        for character in text {
            defer { afterBlank = quote == nil && !escaped && (character == " " || character == "\t") }
            if escaped {
                escaped = false
                continue
            }
            if character == "\\", quote != "'" {
                escaped = true
                continue
            }
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character == "\"" || character == "'" {
                quote = character
            } else if character == "#", afterBlank {
                return true
            }
        }
        return false
    }

    /// The command written back with the quoting rules above, words quoted only when needed.
    package var description: String {
        ([executable] + arguments).map(Self.quoted).joined(separator: " ")
    }

    private static func quoted(_ word: String) -> String {
        let special: Set<Character> = [" ", "\t", "\"", "'", "\\", ";"]
        guard word.isEmpty || word.contains(where: special.contains) else { return word }
        var text = "\""
        for character in word {
            if character == "\"" || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text + "\""
    }

    private enum Token: Equatable {
        case word(String)
        case separator
    }

    /// The words of `text`, or `nil` for an open quote or a trailing backslash.
    private static func split(_ text: String) -> [Token]? {
        var tokens: [Token] = []
        var word = ""
        // Whether a word is under way: `""` is an empty word, not nothing.
        var inWord = false
        // Whether the word so far is a bare `;`, which separates commands.
        var bareSemicolon = false
        var characters = text.makeIterator()
        func endWord() {
            if inWord { tokens.append(bareSemicolon ? .separator : .word(word)) }
            word = ""
            inWord = false
            bareSemicolon = false
        }
        while let character = characters.next() {
            switch character {
            case " ", "\t":
                endWord()
            case "\\":
                guard let next = characters.next() else { return nil }
                word.append(next)
                inWord = true
                bareSemicolon = false
            case "'":
                inWord = true
                bareSemicolon = false
                while true {
                    guard let next = characters.next() else { return nil }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                inWord = true
                bareSemicolon = false
                while true {
                    guard var next = characters.next() else { return nil }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = characters.next() else { return nil }
                        if escaped != "\"" && escaped != "\\" { word.append(next) }
                        next = escaped
                    }
                    word.append(next)
                }
            default:
                bareSemicolon = character == ";" && !inWord
                word.append(character)
                inWord = true
            }
        }
        endWord()
        return tokens
    }
}
