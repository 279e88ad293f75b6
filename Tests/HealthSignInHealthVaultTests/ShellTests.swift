import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import XCTest

/// Shell URLs against protocols/healthvault.md §8.6, and parsing of the completion redirect.
final class ShellTests: XCTestCase {
    static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    static let child = UUID(uuidString: "b5c5593b-afb4-466d-88f2-31707fb8634b")!
    static let shell = HealthVaultShell(url: URL(string: "https://account.healthvault-ppe.com")!)
    static let token =
        "AiAAACH/OO7nZ9ZOtOr7JE7RzhC7rPSay87cX4LyKDyVka/dDC62cR9c2Jzk3HpJjkRAZuAAAADGGYShB8PnpleM+P7OWr9I0WLuqLfcRPBUzqtJrjiMlpzsnyIwOJ2iqp+99Lj6SrlcAf3s5Ea8eMqi5xQDOljUcqbkhTVTavsWUSwT1GdfGvu2VwCRW6gnrGWriGV4dn+SMQru2xDH+u1ZubLIFkLy4Omw7n0LXWaVFjNmtH7AQjheGornC5QidP3p5WCSuT+V4ye+sH51ie9rfx5ZZRSclFdIWTVxGhquQciSnBaX31X9PHY+VikmNFJwY5CAA2IRxrNWzETquZZzxLoIbpiTTcC4azwSp1I44uH0bsqHmSAAAAB4hhVJRM5ftA7iYjnKPtw0hK2lSHtZ88p9H/DpB9CDZCAAAAB4hhVJRM5ftA7iYjnKPtw0hK2lSHtZ88p9H/DpB9CDZA=="

    func testCreateApplicationMatchesTheVector() {
        let url = Self.shell.createApplication(
            masterApplicationID: Self.master, applicationCreationToken: Self.token, instanceName: "iPhone")
        XCTAssertEqual(
            url.absoluteString,
            "https://account.healthvault-ppe.com/redirect.aspx?target=CREATEAPPLICATION&targetqs=appid%3D6556d00c-cb8d-4004-90d6-8be528420ff7%26appCreationToken%3DAiAAACH%252FOO7nZ9ZOtOr7JE7RzhC7rPSay87cX4LyKDyVka%252FdDC62cR9c2Jzk3HpJjkRAZuAAAADGGYShB8PnpleM%252BP7OWr9I0WLuqLfcRPBUzqtJrjiMlpzsnyIwOJ2iqp%252B99Lj6SrlcAf3s5Ea8eMqi5xQDOljUcqbkhTVTavsWUSwT1GdfGvu2VwCRW6gnrGWriGV4dn%252BSMQru2xDH%252Bu1ZubLIFkLy4Omw7n0LXWaVFjNmtH7AQjheGornC5QidP3p5WCSuT%252BV4ye%252BsH51ie9rfx5ZZRSclFdIWTVxGhquQciSnBaX31X9PHY%252BVikmNFJwY5CAA2IRxrNWzETquZZzxLoIbpiTTcC4azwSp1I44uH0bsqHmSAAAAB4hhVJRM5ftA7iYjnKPtw0hK2lSHtZ88p9H%252FDpB9CDZCAAAAB4hhVJRM5ftA7iYjnKPtw0hK2lSHtZ88p9H%252FDpB9CDZA%253D%253D%26instanceName%3DiPhone%26ismra%3Dtrue%26mobile%3Dtrue%26aib%3Dtrue"
        )
    }

    func testAppAuthMatchesTheVector() {
        XCTAssertEqual(
            Self.shell.authorizeApplication(applicationID: Self.child).absoluteString,
            "https://account.healthvault-ppe.com/redirect.aspx?target=APPAUTH&targetqs=appid%3Db5c5593b-afb4-466d-88f2-31707fb8634b%26ismra%3Dtrue%26mobile%3Dtrue"
        )
    }

    func testOtherTargetsAndInstanceNamesWithSpaces() {
        let shell = HealthVaultShell(url: URL(string: "https://account.healthvault.co.uk/")!)
        XCTAssertEqual(
            shell.createAccount(applicationID: Self.child).absoluteString,
            "https://account.healthvault.co.uk/redirect.aspx?target=CREATEACCOUNT&targetqs=appid%3Db5c5593b-afb4-466d-88f2-31707fb8634b%26ismra%3Dtrue%26mobile%3Dtrue"
        )
        XCTAssertEqual(
            shell.createRecord(applicationID: Self.child, isMultiRecordApp: false, allowsInstanceBounce: true)
                .absoluteString,
            "https://account.healthvault.co.uk/redirect.aspx?target=CREATERECORD&targetqs=appid%3Db5c5593b-afb4-466d-88f2-31707fb8634b%26ismra%3Dfalse%26mobile%3Dtrue%26aib%3Dtrue"
        )
        let named = shell.createApplication(
            masterApplicationID: Self.master, applicationCreationToken: "a+b", instanceName: "Alex's iPhone")
        XCTAssertTrue(
            named.absoluteString.contains("appCreationToken%3Da%252Bb%26instanceName%3DAlex%2527s%2520iPhone"),
            named.absoluteString)
    }

    func testCompletionOnAnyShellHostWithEitherParameterCase() throws {
        for text in [
            "https://account.healthvault-ppe.co.uk/application/complete?appid=b5c5593b-afb4-466d-88f2-31707fb8634b&target=AppAuthSuccess&instanceid=2",
            "https://account.healthvault-ppe.com/application/complete?appid=B5C5593B-AFB4-466D-88F2-31707FB8634B&target=AppAuthSuccess&instanceId=2",
        ] {
            let completion = try ShellCompletion(redirect: URL(string: text)!, expectedApplicationID: Self.child)
            XCTAssertEqual(completion.target, .appAuthSuccess)
            XCTAssertEqual(completion.instanceID, "2")
        }
    }

    func testOtherTargetsAreTyped() throws {
        let base =
            "https://account.healthvault-ppe.com/application/complete?appid=b5c5593b-afb4-466d-88f2-31707fb8634b&target="
        XCTAssertEqual(
            try ShellCompletion(redirect: URL(string: base + "AppAuthReject")!, expectedApplicationID: Self.child)
                .target, .appAuthReject)
        XCTAssertEqual(
            try ShellCompletion(
                redirect: URL(string: base + "SelectedRecordChanged")!, expectedApplicationID: Self.child
            ).target, .selectedRecordChanged)
        XCTAssertEqual(
            try ShellCompletion(redirect: URL(string: base + "SomethingNew")!, expectedApplicationID: Self.child)
                .target, .unknown("SomethingNew"))
    }

    func testAnAppAuthReturnMayNameNeitherTheApplicationNorTheInstance() throws {
        let completion = try ShellCompletion(
            redirect: URL(string: "https://account.healthvault-ppe.com/application/complete?target=AppAuthSuccess")!,
            expectedApplicationID: Self.child)
        XCTAssertEqual(completion.target, .appAuthSuccess)
        XCTAssertNil(completion.applicationID)
        XCTAssertNil(completion.instanceID)
    }

    func testBadRedirectsAreClearErrors() {
        let cases: [(String, ShellRedirectError)] = [
            (
                "https://account.healthvault-ppe.com/application/complete?appid=b5c5593b-afb4-466d-88f2-31707fb8634b",
                .missingParameter("target")
            ),
            (
                "https://account.healthvault-ppe.com/application/complete?appid=b5c5593b-afb4-466d-88f2-31707fb8634b&target=",
                .missingParameter("target")
            ),
            (
                "https://account.healthvault-ppe.com/application/complete?appid=nope&target=AppAuthSuccess&instanceid=1",
                .invalidParameter("appid")
            ),
            (
                "https://account.healthvault-ppe.com/application/complete?appid=6556d00c-cb8d-4004-90d6-8be528420ff7&target=AppAuthSuccess&instanceid=1",
                .foreignApplication(Self.master)
            ),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ShellCompletion(redirect: URL(string: text)!, expectedApplicationID: Self.child)) {
                error in
                XCTAssertEqual(error as? ShellRedirectError, expected, text)
            }
        }
    }

    func testTheMatcherKnowsTheCompletionPageAndTheActionURL() {
        let plain = ShellReturnMatcher()
        XCTAssertEqual(
            plain.kind(of: URL(string: "https://account.healthvault-ppe.co.uk/Application/Complete/?target=x")!),
            .completionPage)
        XCTAssertNil(plain.kind(of: URL(string: "https://account.healthvault-ppe.com/signin?appid=1")!))
        XCTAssertNil(plain.kind(of: URL(string: "myapp://healthvault/done?target=AppAuthSuccess")!))

        let custom = ShellReturnMatcher(actionURL: URL(string: "myapp://healthvault/done")!)
        XCTAssertEqual(
            custom.kind(of: URL(string: "MyApp://HealthVault/done/?target=AppAuthSuccess&appid=1")!), .actionURL)
        XCTAssertNil(custom.kind(of: URL(string: "myapp://healthvault/other?target=AppAuthSuccess")!))
        XCTAssertNil(custom.kind(of: URL(string: "otherapp://healthvault/done?target=AppAuthSuccess")!))

        let web = ShellReturnMatcher(actionURL: URL(string: "https://app.example/hv/return?keep=1")!)
        XCTAssertEqual(web.kind(of: URL(string: "https://app.example/hv/return?target=AppAuthSuccess")!), .actionURL)
        XCTAssertNil(web.kind(of: URL(string: "https://app.example:8443/hv/return?target=AppAuthSuccess")!))
        XCTAssertNil(web.kind(of: URL(string: "https://evil.example/hv/return?target=AppAuthSuccess")!))
    }
}
