import Foundation
import Testing
import TravelFormats
import TravelMessages

@testable import TravelControl

/// The IDL in `docs/` is the one the daemon serves: `ControlInterface.description` is the
/// source, the file is generated from it (`REGENERATE_CONTROL_IDL=1`) and checked here.
@Suite struct ControlInterfaceTests {
    static let documented = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/org.travelcompanion.control.varlink")

    @Test func theDocumentedIDLIsTheServedOne() throws {
        if ProcessInfo.processInfo.environment["REGENERATE_CONTROL_IDL"] == "1" {
            try ControlInterface.description.write(to: Self.documented, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOf: Self.documented, encoding: .utf8)
        #expect(text == ControlInterface.description, "regenerate with REGENERATE_CONTROL_IDL=1")
    }

    @Test func everyMethodIsDeclaredInTheIDL() {
        for method in ControlInterface.Method.allCases {
            #expect(ControlInterface.description.contains("method \(method.rawValue)("), "\(method)")
        }
    }

    @Test func callsReadTheirParts() throws {
        let call = try VarlinkCall(
            frame: Array(#"{"method":"org.travelcompanion.control.GetTrip","parameters":{"id":3},"more":true}"#.utf8)
        )
        #expect(call.interface == "org.travelcompanion.control")
        #expect(call.name == "GetTrip")
        #expect(call.more && !call.oneway)
        #expect(try call.integer("id") == 3)
        #expect(throws: VarlinkError.invalidParameter("extra")) {
            try VarlinkCall(method: "x.Y", parameters: ["extra": 1]).allowParameters(["id"])
        }
        #expect(throws: VarlinkError.invalidParameter("since")) {
            try VarlinkCall(method: "x.Y", parameters: ["since": "yesterday"]).instant("since")
        }
    }
}
