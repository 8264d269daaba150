import Foundation
import Testing

/// `make install`, `make uninstall` and `make deb` run as a packager would, into temporary roots:
/// the release build they share is made once (`.build-release`, or `INSTALL_SCRATCH`), later
/// runs find it up to date.
@Suite(.serialized) struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped configuration, which an install puts in `/etc/travel-companion`.
    static let shippedConfig = repository.appendingPathComponent("config/travel-companion.conf")

    /// A temporary DESTDIR.
    struct Root {
        let url: URL
        var path: String { url.path }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("tc-install-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }

        /// Every file and link under the root, as absolute paths on the target system.
        func files() throws -> Set<String> {
            var found: Set<String> = []
            let enumerator = FileManager.default.enumerator(atPath: path)
            while let relative = enumerator?.nextObject() as? String {
                let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + relative)
                if attributes[.type] as? FileAttributeType != .typeDirectory { found.insert("/" + relative) }
            }
            return found
        }

        func contents(_ file: String) throws -> String { try String(contentsOfFile: path + file, encoding: .utf8) }
    }

    /// Runs `make TARGET VARIABLES…` in the repository; the test stops here if it fails.
    @discardableResult
    static func make(_ arguments: [String]) throws -> Binaries.Result {
        let result = try Binaries.run(
            "/usr/bin/make",
            ["--no-print-directory", "-C", repository.path] + arguments,
            absolute: true
        )
        try #require(
            result.status == 0,
            "make \(arguments.joined(separator: " ")): \(result.output)\(result.standardError)"
        )
        return result
    }

    /// Runs a system tool and returns its result.
    static func tool(_ path: String, _ arguments: [String]) throws -> Binaries.Result {
        try Binaries.run(path, arguments, absolute: true)
    }

    /// The version the debug products report, which the release build must report too.
    static func builtVersion() throws -> String {
        try Binaries.run("travelctl", ["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let commands = ["travel-companiond", "travelctl"]

    @Test func installLaysOutTheFilesUnderPrefixUsr() throws {
        let root = try Root()
        defer { root.remove() }
        try Self.make(["install", "DESTDIR=\(root.path)", "PREFIX=/usr"])
        let files = try root.files()

        let expected: Set<String> = [
            "/usr/bin/travel-companiond", "/usr/bin/travelctl",
            "/usr/lib/systemd/system/travel-companion.service", "/usr/lib/systemd/system/travel-companion.socket",
            "/usr/lib/systemd/user/travel-companion-notify.service",
            "/usr/lib/sysusers.d/travel-companion.conf", "/usr/lib/tmpfiles.d/travel-companion.conf",
            "/usr/lib/systemd/catalog/travel-companion.catalog",
            "/etc/travel-companion/travel-companion.conf", "/usr/share/travel-companion/travel-companion.conf",
            "/usr/share/travel-companion/installed-files",
            "/usr/share/travel-companion/gazetteer.bin", "/usr/share/travel-companion/gazetteer-LICENSE",
            "/usr/share/doc/travel-companion/README.md", "/usr/share/doc/travel-companion/raspberry-pi.md",
            "/usr/share/man/man1/travelctl.1", "/usr/share/man/man8/travel-companiond.8",
            "/usr/share/bash-completion/completions/travelctl",
            "/usr/share/bash-completion/completions/travel-companiond",
            "/usr/share/zsh/vendor-completions/_travelctl", "/usr/share/zsh/vendor-completions/_travel-companiond",
            "/usr/share/fish/vendor_completions.d/travelctl.fish",
            "/usr/share/fish/vendor_completions.d/travel-companiond.fish",
        ]
        #expect(expected.subtracting(files).isEmpty, "missing: \(expected.subtracting(files).sorted())")
        let pages = files.filter { $0.hasPrefix("/usr/share/man/") }
        let unexpected = files.subtracting(expected).subtracting(pages)
        #expect(unexpected.isEmpty, "unexpected: \(unexpected.sorted())")
        // One page per subcommand: travelctl's commands in section 1, the daemon's in section 8.
        #expect(pages.contains("/usr/share/man/man1/travelctl.export.1"))
        #expect(pages.contains("/usr/share/man/man8/travel-companiond.check-config.8"))

        // The manifest lists every installed file but the configuration, which uninstall treats apart.
        let manifest = Set(
            try root.contents("/usr/share/travel-companion/installed-files").split(separator: "\n").map(String.init)
        )
        #expect(manifest == files.subtracting(["/etc/travel-companion/travel-companion.conf"]))
        #expect(
            try root.contents("/etc/travel-companion/travel-companion.conf")
                == String(contentsOf: Self.shippedConfig, encoding: .utf8)
        )

        for command in Self.commands {
            let installed = root.path + "/usr/bin/" + command
            let version = try Self.tool(installed, ["--version"])
            #expect(version.status == 0)
            #expect(version.output.trimmingCharacters(in: .whitespacesAndNewlines) == (try Self.builtVersion()))
            try Self.expectOnlySystemLibraries(installed)
        }
        // The installed travelctl names places from the gazetteer installed beside it.
        let database = root.path + "/travel.sqlite"
        let imported = try Self.tool(
            root.path + "/usr/bin/travelctl",
            ["--db", database, "import", DaemonReplayTests.bus]
        )
        #expect(imported.status == 0)
        let trips = try Self.tool(root.path + "/usr/bin/travelctl", ["--db", database, "trips"]).output
        #expect(trips.contains(", Munster"), "\(trips)")
        // The units start the binaries where they were installed.
        #expect(
            try root.contents("/usr/lib/systemd/system/travel-companion.service").contains(
                "\nExecStart=/usr/bin/travel-companiond run\n"
            )
        )
        #expect(
            try root.contents("/usr/lib/systemd/user/travel-companion-notify.service").contains(
                "\nExecStart=/usr/bin/travelctl notify-bridge\n"
            )
        )
        #expect(
            try root.contents("/usr/lib/systemd/system/travel-companion.service")
                == String(
                    contentsOf: Self.repository.appendingPathComponent("systemd/travel-companion.service"),
                    encoding: .utf8
                )
        )
        try Self.expectSystemdFindsTheSnippets(root)
        try Self.expectCleanManualPages(root, pages)
        try Self.expectWorkingCompletions(root, zshDirectory: "/usr/share/zsh/vendor-completions")
    }

    @Test func installElsewhereMovesTheUnitsPathsButNotTheConfiguration() throws {
        let root = try Root()
        defer { root.remove() }
        try Self.make(["install", "DESTDIR=\(root.path)", "PREFIX=/opt/tc"])
        let service = try root.contents("/opt/tc/lib/systemd/system/travel-companion.service")
        #expect(service.contains("\nExecStart=/opt/tc/bin/travel-companiond run\n"))
        #expect(service.contains("\nDocumentation=file:///opt/tc/share/doc/travel-companion/README.md\n"))
        #expect(!service.contains("/usr/bin/"))
        #expect(FileManager.default.isExecutableFile(atPath: root.path + "/opt/tc/bin/travel-companiond"))
        #expect(
            try root.contents("/opt/tc/lib/systemd/user/travel-companion-notify.service").contains(
                "\nExecStart=/opt/tc/bin/travelctl notify-bridge\n"
            )
        )
        // The daemon reads /etc/travel-companion whatever the prefix.
        #expect(FileManager.default.fileExists(atPath: root.path + "/etc/travel-companion/travel-companion.conf"))
        #expect(FileManager.default.fileExists(atPath: root.path + "/opt/tc/share/zsh/site-functions/_travelctl"))
    }

    @Test func uninstallRemovesEveryFileButAChangedConfiguration() throws {
        let root = try Root()
        defer { root.remove() }
        try Self.make(["install", "DESTDIR=\(root.path)", "PREFIX=/usr"])
        // The installed tmpfiles snippet makes the drop-in directory, as on a real system.
        let tmpfiles = try Self.tool(
            "/usr/bin/systemd-tmpfiles",
            ["--root=\(root.path)", "--create", "travel-companion.conf"]
        )
        #expect(tmpfiles.status == 0, "\(tmpfiles.standardError)")
        #expect(FileManager.default.fileExists(atPath: root.path + "/etc/travel-companion/travel-companion.conf.d"))
        try Self.make(["uninstall", "DESTDIR=\(root.path)", "PREFIX=/usr"])
        let leftBehind = try root.files()
        #expect(leftBehind.isEmpty, "left behind: \(leftBehind.sorted())")
        #expect(!FileManager.default.fileExists(atPath: root.path + "/etc/travel-companion"))

        // A configuration the user changed survives uninstall and a later install.
        try Self.make(["install", "DESTDIR=\(root.path)", "PREFIX=/usr"])
        let config = root.path + "/etc/travel-companion/travel-companion.conf"
        let changed = "[Source]\nURL=serial:///dev/serial0?baud=9600\n"
        try changed.write(toFile: config, atomically: true, encoding: .utf8)
        try Self.make(["install", "DESTDIR=\(root.path)", "PREFIX=/usr"])
        #expect(try root.contents("/etc/travel-companion/travel-companion.conf") == changed)
        let uninstall = try Self.make(["uninstall", "DESTDIR=\(root.path)", "PREFIX=/usr"])
        #expect(uninstall.output.contains("kept /etc/travel-companion/travel-companion.conf, which you changed"))
        #expect(try root.files() == ["/etc/travel-companion/travel-companion.conf"])
        #expect(try root.contents("/etc/travel-companion/travel-companion.conf") == changed)

        // Nothing installed: uninstall says so and fails rather than removing nothing quietly.
        let again = try Self.tool(
            "/usr/bin/make",
            ["-C", Self.repository.path, "uninstall", "DESTDIR=\(root.path)", "PREFIX=/usr"]
        )
        #expect(again.status != 0)
        #expect(again.standardError.contains("nothing installed under prefix /usr"))
    }

    @Test func debianPackageHoldsTheInstallAndItsControlFields() throws {
        let out = try Root()
        defer { out.remove() }
        // gzip instead of xz: the same package, a fraction of the test's time.
        try Self.make(["deb", "DEB_OUT=\(out.path)", "DEB_COMPRESSION=gzip"])
        let version = try Self.builtVersion()
        let architecture = try Self.tool("/usr/bin/dpkg", ["--print-architecture"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let package = out.path + "/travel-companion_\(version)_\(architecture).deb"
        #expect(FileManager.default.fileExists(atPath: package))

        func field(_ name: String) throws -> String {
            try Self.tool("/usr/bin/dpkg-deb", ["--field", package, name]).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try field("Package") == "travel-companion")
        #expect(try field("Version") == version)
        #expect(try field("Architecture") == architecture)
        let depends = try field("Depends")
        for library in ["libc6 (>= ", "libsqlite3-0 (>= ", "libsystemd0 (>= ", "systemd", "tzdata"] {
            #expect(depends.contains(library), "Depends: \(depends)")
        }
        #expect(!depends.contains("swift"))

        let info = try Self.tool("/usr/bin/dpkg-deb", ["--info", package]).output
        for member in ["postinst", "prerm", "postrm", "conffiles", "md5sums"] {
            #expect(info.contains(" \(member) "), "\(member) missing: \(info)")
        }
        let contents = try Self.tool("/usr/bin/dpkg-deb", ["--contents", package]).output
        for file in [
            "./usr/bin/travel-companiond", "./usr/bin/travelctl", "./usr/lib/systemd/system/travel-companion.service",
            "./usr/lib/sysusers.d/travel-companion.conf", "./etc/travel-companion/travel-companion.conf",
            "./usr/share/man/man1/travelctl.1.gz", "./usr/share/doc/travel-companion/copyright",
            "./usr/share/doc/travel-companion/changelog.gz", "./usr/share/travel-companion/gazetteer.bin",
        ] {
            #expect(contents.contains(" \(file)\n"), "\(file) missing")
        }
        #expect(
            contents.split(separator: "\n").allSatisfy {
                $0.hasPrefix("-rw-r--r-- root/root") || $0.hasPrefix("-rwxr-xr-x root/root")
                    || $0.hasPrefix("drwxr-xr-x root/root")
            }
        )
        #expect(!contents.contains("installed-files"))

        // The tree unpacked is the one dpkg would install, and its binaries run.
        let unpacked = try Root()
        defer { unpacked.remove() }
        #expect(try Self.tool("/usr/bin/dpkg-deb", ["--extract", package, unpacked.path]).status == 0)
        #expect(try Self.tool(unpacked.path + "/usr/bin/travelctl", ["--version"]).output.hasPrefix(version))
        let control = unpacked.path + "/DEBIAN"
        #expect(try Self.tool("/usr/bin/dpkg-deb", ["--control", package, control]).status == 0)
        for script in ["postinst", "prerm", "postrm"] {
            let check = try Self.tool("/bin/sh", ["-n", control + "/" + script])
            #expect(check.status == 0, "\(script): \(check.standardError)")
        }
        #expect(
            try String(contentsOfFile: control + "/conffiles", encoding: .utf8)
                == "/etc/travel-companion/travel-companion.conf\n"
        )
        try Self.expectPackageLifecycle(package)
    }

    /// A throwaway machine for `dpkg`: an `NspawnMachine` with the host's `/usr` under a writable
    /// overlay and a copy of the dpkg database, so the package installs, and its maintainer
    /// scripts run, for real; the host is untouched.
    static func packageMachine(package: String) throws -> NspawnMachine {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tc-dpkg-\(UUID().uuidString)")
        let upper = scratch.appendingPathComponent("usr-upper")
        let database = scratch.appendingPathComponent("dpkg")
        try FileManager.default.createDirectory(at: upper, withIntermediateDirectories: true)
        #expect(try tool("/bin/cp", ["-a", "/var/lib/dpkg", database.path]).status == 0)
        // Overrides for groups the tmpfs /etc does not have would stop dpkg; ours needs none.
        try Data().write(to: database.appendingPathComponent("statoverride"))
        return try NspawnMachine(
            scratch: scratch,
            options: [
                "--overlay=/usr:\(upper.path):/usr", "--bind=\(database.path):/var/lib/dpkg", "--bind-ro=/etc/dpkg",
                "--bind-ro=\(package):/srv/travel-companion.deb",
            ]
        )
    }

    /// Installs, removes and purges `package` in a `packageMachine`.
    static func expectPackageLifecycle(_ package: String) throws {
        let machine = try packageMachine(package: package)
        defer { machine.powerOff() }
        // Debian starts a daemon on install; this machine's policy-rc.d (a container image's)
        // forbids any start, so the machine does without it, as an ordinary system does.
        try machine.shell("rm -f /usr/sbin/policy-rc.d")
        let install = try machine.shell("dpkg -i /srv/travel-companion.deb")
        #expect(install.status == 0, "\(install.output)\(install.standardError)")
        #expect(try machine.shell("getent group travel").status == 0)
        let enabled = try machine.shell("systemctl is-enabled travel-companion.service travel-companion.socket").output
        #expect(enabled == "enabled\nenabled\n")
        #expect(try machine.shell("test -s /var/lib/systemd/catalog/database").status == 0)
        let running = try machine.shell("systemctl is-active travel-companion.service travel-companion.socket").output
        let journal = try machine.shell("journalctl -u travel-companion --no-pager").output
        #expect(running == "active\nactive\n", "\(journal)")
        let status = try machine.shell("travelctl status")
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.output.contains("/var/lib/travel-companion/travel.sqlite"), "\(status.output)")

        let remove = try machine.shell("dpkg -r travel-companion")
        #expect(remove.status == 0, "\(remove.standardError)")
        #expect(try machine.shell("systemctl is-active travel-companion.service").output == "inactive\n")
        #expect(try machine.shell("test -e /usr/bin/travel-companiond").status != 0)
        #expect(try machine.shell("test -f /etc/travel-companion/travel-companion.conf").status == 0)

        let purge = try machine.shell("dpkg -P travel-companion")
        #expect(purge.status == 0, "\(purge.standardError)")
        #expect(try machine.shell("test -e /etc/travel-companion").status != 0)
        #expect(try machine.shell("ls /etc/systemd/system/*.wants | grep -c travel-companion").output == "0\n")
        // The history outlives the package.
        #expect(try machine.shell("test -s /var/lib/private/travel-companion/travel.sqlite").status == 0)
    }

    /// `ldd` names only system libraries: the Swift runtime is linked in, so /opt/swift is not needed.
    static func expectOnlySystemLibraries(_ binary: String) throws {
        let ldd = try tool("/usr/bin/ldd", [binary])
        #expect(ldd.status == 0)
        let libraries = ldd.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(libraries.contains { $0.hasPrefix("libsqlite3.so") })
        #expect(libraries.contains { $0.hasPrefix("libsystemd.so") })
        for line in libraries {
            #expect(!line.contains("swift") && !line.contains("Foundation") && !line.contains("dispatch"), "\(line)")
            #expect(!line.contains("not found"), "\(line)")
            if let target = line.split(separator: " => ").last, line.contains(" => ") {
                #expect(target.hasPrefix("/lib/") || target.hasPrefix("/usr/lib/"), "\(line)")
            }
        }
    }

    /// systemd-sysusers and systemd-tmpfiles read the installed snippets from where they were put.
    static func expectSystemdFindsTheSnippets(_ root: Root) throws {
        for (command, snippet) in [
            ("/usr/bin/systemd-sysusers", "/usr/lib/sysusers.d/travel-companion.conf"),
            ("/usr/bin/systemd-tmpfiles", "/usr/lib/tmpfiles.d/travel-companion.conf"),
        ] {
            let result = try tool(command, ["--root=\(root.path)", "--cat-config", "--no-pager"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.output.contains(root.path + snippet), "\(command) did not read \(snippet)")
        }
    }

    /// Each page formats with groff's warnings on, and says something beyond its name.
    static func expectCleanManualPages(_ root: Root, _ pages: Set<String>) throws {
        for page in pages {
            let result = try tool("/usr/bin/groff", ["-mandoc", "-Tutf8", "-ww", "-z", root.path + page])
            #expect(result.status == 0 && result.standardError.isEmpty, "\(page): \(result.standardError)")
        }
        let formatted = try tool(
            "/usr/bin/groff",
            ["-mandoc", "-Tascii", "-P-cbou", root.path + "/usr/share/man/man1/travelctl.1"]
        )
        for text in ["NAME", "travelctl", "SYNOPSIS", "export"] {
            #expect(formatted.output.contains(text), "travelctl.1 lacks \(text)")
        }
    }

    /// The scripts are valid for their shells, and bash's completes a subcommand by asking it.
    static func expectWorkingCompletions(_ root: Root, zshDirectory: String) throws {
        for command in commands {
            let bash = "/usr/share/bash-completion/completions/\(command)"
            #expect(try tool("/bin/bash", ["-n", root.path + bash]).status == 0)
            #expect(try root.contents(zshDirectory + "/_\(command)").hasPrefix("#compdef \(command)"))
            #expect(
                try root.contents("/usr/share/fish/vendor_completions.d/\(command).fish").contains(
                    "complete -c '\(command)'"
                )
            )
        }
        let completion = try tool(
            "/bin/bash",
            [
                "-c",
                """
                PATH=\(root.path)/usr/bin:$PATH
                source \(root.path)/usr/share/bash-completion/completions/travelctl
                COMP_WORDS=(travelctl exp); COMP_CWORD=1; COMP_LINE='travelctl exp'; COMP_POINT=${#COMP_LINE}
                _travelctl travelctl exp travelctl
                printf '%s\\n' "${COMPREPLY[@]}"
                """,
            ]
        )
        #expect(completion.status == 0, "\(completion.standardError)")
        #expect(completion.output.split(separator: "\n").contains("export"), "\(completion.output)")
    }
}
