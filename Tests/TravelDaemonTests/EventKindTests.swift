import Foundation
import Testing

@testable import TravelDaemon

/// The journal catalog: one entry per event kind, ids unique and well-formed, and the shipped file
/// the one the table generates (`REGENERATE_CATALOG=1 swift test --filter EventKindTests` rewrites it).
@Suite struct EventKindTests {
    static let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../systemd/travel-companion.catalog").standardized

    @Test func idsAreUniqueHexadecimal128BitValues() {
        let ids = EventKind.allCases.map(\.messageID)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id)")
        }
    }

    @Test func theShippedCatalogIsTheOneTheTableGenerates() throws {
        if ProcessInfo.processInfo.environment["REGENERATE_CATALOG"] == "1" {
            try EventKind.catalogFile.write(to: Self.catalog, atomically: true, encoding: .utf8)
        }
        let shipped = try String(contentsOf: Self.catalog, encoding: .utf8)
        #expect(shipped == EventKind.catalogFile)
        for kind in EventKind.allCases {
            #expect(shipped.contains("-- \(kind.messageID)\nSubject: "))
        }
    }

    @Test func metadataKeysBecomeJournalFieldNames() {
        #expect(JournalLogHandler.fieldName("distance_m") == "DISTANCE_M")
        #expect(JournalLogHandler.fieldName("message_id") == "MESSAGE_ID")
        #expect(JournalLogHandler.fieldName("_private") == nil)
        #expect(JournalLogHandler.fieldName("1st") == nil)
        #expect(JournalLogHandler.fieldName("zone-name") == nil)
    }
}
