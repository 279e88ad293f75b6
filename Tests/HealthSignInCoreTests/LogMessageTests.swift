import HealthSignInCore
import XCTest

final class LogMessageTests: XCTestCase {
    func testOnlyTheSDKsOwnWordingIsPublic() {
        let host = "api.example.com"
        let status = 200
        let operation = "ResolveUser"
        let literal: LogMessage = "signed in"
        let own: LogMessage = "\(public: operation) ← HTTP \(public: status)"
        let outside: LogMessage = "\(public: operation) → GET https://\(host)/v2/user/resolve/user-42"
        XCTAssertEqual([literal.isPublic, own.isPublic, outside.isPublic], [true, true, false])
        XCTAssertEqual(own.text, "ResolveUser ← HTTP 200")
        XCTAssertEqual(outside.description, "ResolveUser → GET https://api.example.com/v2/user/resolve/user-42")
        let record = LogEntry(level: .info, category: "Vital", message: outside)
        XCTAssertEqual(record.message, outside.text)
        XCTAssertFalse(record.isPublic)
    }

    func testTheRedactedTextKeepsTheSDKsWordingAndHidesEveryOtherValue() {
        let status = 401
        let user = "alice"
        let message: LogMessage = "\(public: "createUser") ← HTTP \(status) for \(user)"
        XCTAssertEqual(message.redactedText, "createUser ← HTTP <private> for <private>")
        XCTAssertEqual(LogMessage("a server's words", isPublic: false).redactedText, "<private>")
        XCTAssertEqual(LogMessage("the SDK's words", isPublic: true).redactedText, "the SDK's words")
        let literal: LogMessage = "refreshed the credential"
        XCTAssertEqual(literal.redactedText, literal.text)
    }
}
