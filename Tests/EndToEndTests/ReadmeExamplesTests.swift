import Foundation
import Testing

/// Every transcript in the README — a fenced block of `$ command` lines, each followed by what it
/// prints — is run as a user would paste it, in a shell, and must print exactly what the README
/// shows. So no example a user copies can fail or print something else.
///
/// Each block runs in a fresh directory that holds what the examples name: `Tests/` and `config/`
/// of this repository, a copy of the bundled photos as `photos/`, and the files of
/// `Tests/Fixtures/readme/` (e.g. `broken.conf`). `/tmp/` in a command is that directory, and the
/// directory's path reads `/tmp` in the output. Commands run in UTC, standard error merged into
/// standard output. An output line `…` stands for any number of lines, and `…` within a line for
/// any text (a time that is "now").
@Suite struct ReadmeExamplesTests {
    static let repository = Binaries.fixtures.deletingLastPathComponent().deletingLastPathComponent()

    /// One transcript: the README line it starts on, and its commands with what each prints.
    struct Transcript {
        var line: Int
        var steps: [(command: String, output: [String])] = []
    }

    /// The transcripts of `markdown`: its fenced blocks with at least one `$ ` line, each
    /// block's lines taken without the indentation of its opening fence.
    static func transcripts(in markdown: String) -> [Transcript] {
        var transcripts: [Transcript] = []
        var block: (line: Int, indent: Int, lines: [String])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                if let open = block {
                    var transcript = Transcript(line: open.line)
                    for text in open.lines {
                        if text.hasPrefix("$ ") {
                            transcript.steps.append((String(text.dropFirst(2)), []))
                        } else if !transcript.steps.isEmpty {
                            transcript.steps[transcript.steps.count - 1].output.append(text)
                        }
                    }
                    if !transcript.steps.isEmpty { transcripts.append(transcript) }
                    block = nil
                } else {
                    block = (index + 1, line.count - trimmed.count, [])
                }
            } else if let open = block {
                block?.lines.append(String(line.dropFirst(min(open.indent, line.count - trimmed.count))))
            }
        }
        return transcripts
    }

    /// Whether `actual` is `expected`, where an expected line `…` matches any run of lines.
    static func matches(_ actual: ArraySlice<String>, _ expected: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "…" {
            return (actual.startIndex...actual.endIndex).contains {
                matches(actual[$0...], expected.dropFirst())
            }
        }
        return actual.first.map { matches($0, first) } == true && matches(actual.dropFirst(), expected.dropFirst())
    }

    /// Whether `line` is `pattern`, where each `…` in `pattern` matches any run of characters.
    static func matches(_ line: String, _ pattern: String) -> Bool {
        let parts = pattern.components(separatedBy: "…")
        guard parts.count > 1 else { return line == pattern }
        guard line.hasPrefix(parts[0]), line.hasSuffix(parts[parts.count - 1]),
            line.count >= parts[0].count + parts[parts.count - 1].count
        else { return false }
        var rest = line.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
        for part in parts.dropFirst().dropLast() {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    /// A fresh directory with what the README's examples name.
    static func sandbox() throws -> URL {
        let manager = FileManager.default
        let directory = manager.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString.prefix(8))")
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["Tests", "config"] {
            try manager.createSymbolicLink(
                at: directory.appendingPathComponent(name),
                withDestinationURL: repository.appendingPathComponent(name)
            )
        }
        try manager.copyItem(
            at: Binaries.fixtures.appendingPathComponent("photos"),
            to: directory.appendingPathComponent("photos")
        )
        let extras = Binaries.fixtures.appendingPathComponent("readme")
        for name in try manager.contentsOfDirectory(atPath: extras.path) where name != "README.md" {
            try manager.copyItem(at: extras.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        return directory
    }

    @Test func theReadmeHasTranscriptsAndTheMatcherCanFail() {
        let markdown = "a\n```\n$ echo a\na\n```\n  ```\n  $ echo b\n  …\n  c\n  ```\n```ini\nx=1\n```\n"
        let found = Self.transcripts(in: markdown)
        #expect(found.map(\.line) == [2, 6])
        #expect(found.map { $0.steps.map(\.command) } == [["echo a"], ["echo b"]])
        #expect(found[1].steps[0].output == ["…", "c"])
        #expect(Self.matches(["x", "y", "c"], ["…", "c"]))
        #expect(!Self.matches(["x", "c", "y"], ["…", "c"]))
        #expect(!Self.matches(["a"], ["b"]))
        #expect(!Self.matches(["a", "b"], ["a"]))
        #expect(Self.matches(["id  2026-11-24 18:50  2144"], ["id  …  2144"]))
        #expect(!Self.matches(["id  2026-11-24 18:50  2145"], ["id  …  2144"]))
        #expect(Self.matches("a-b-c", "a…b…c") && !Self.matches("a-c-b", "a…b…c") && !Self.matches("ab", "ab…b"))
    }

    @Test func everyTranscriptInTheReadmePrintsWhatItShows() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let transcripts = Self.transcripts(in: readme)
        #expect(transcripts.count >= 6, "the README's transcripts were not found")
        let path =
            Binaries.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for transcript in transcripts {
            let directory = try Self.sandbox()
            defer { try? FileManager.default.removeItem(at: directory) }
            for step in transcript.steps {
                let command = step.command.replacingOccurrences(of: "/tmp/", with: directory.path + "/")
                let result = try Binaries.run(
                    "/bin/bash",
                    ["-c", "{ \(command)\n} 2>&1"],
                    absolute: true,
                    directory: directory,
                    environment: ["PATH": path, "TZ": "UTC"]
                )
                let output = result.output.replacingOccurrences(of: directory.path, with: "/tmp")
                var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if lines.last == "" { lines.removeLast() }
                #expect(
                    Self.matches(lines[...], step.output[...]),
                    "README.md:\(transcript.line): $ \(step.command)\nprints:\n\(output)\nthe README shows:\n\(step.output.joined(separator: "\n"))"
                )
            }
        }
    }
}
