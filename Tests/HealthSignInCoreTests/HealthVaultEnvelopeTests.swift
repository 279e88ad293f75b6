import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// The HealthVault request envelope against the byte-exact vectors of protocols/healthvault.md §8.3 and §8.5.
final class HealthVaultEnvelopeTests: XCTestCase {
    static let sessionToken = "ASAAAHVzlWa6ExampleSessionTokenForTestVectorsOnly0123456789abcdef=="
    static let sessionSecret = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    static let personID = UUID(uuidString: "cc5e5771-4da7-4961-a758-d7714223d9ab")!
    static let recordID = UUID(uuidString: "9c863988-e2aa-440e-8c11-7ba4750ba4c8")!
    static let instant = Date(timeIntervalSince1970: 1_502_368_496)
    static let settings = HealthVaultEnvelopeSettings(clientVersion: "HV-Swift/1.0.0 iOS 17.0")

    func testR6GetPersonInfoWithOfflinePerson() throws {
        var info = XMLWriter()
        info.startElement("info")
        info.endElement()
        let session = HealthVaultSessionCredential(
            token: Self.sessionToken, sharedSecret: Self.sessionSecret, personID: Self.personID)
        let envelope = try HealthVaultRequestEnvelope.encode(
            method: "GetPersonInfo", version: 1, auth: .session(session), settings: Self.settings,
            messageTime: Self.instant, info: info
        )
        let expected =
            #"<wc-request:request xmlns:wc-request="urn:com.microsoft.wc.request"><auth><hmac-data algName="HMACSHA256">FWsv7hlxxsylSZ8TtXKlHR3H430Sy+XS7vVFx2f97so=</hmac-data></auth><header><method>GetPersonInfo</method><method-version>1</method-version><auth-session><auth-token>ASAAAHVzlWa6ExampleSessionTokenForTestVectorsOnly0123456789abcdef==</auth-token><offline-person-info><offline-person-id>cc5e5771-4da7-4961-a758-d7714223d9ab</offline-person-id></offline-person-info></auth-session><language>en</language><country>US</country><msg-time>2017-08-10T12:34:56.000Z</msg-time><msg-ttl>1800</msg-ttl><version>HV-Swift/1.0.0 iOS 17.0</version><info-hash><hash-data algName="SHA256">ZbR1gwo184c/YSTAFOCI3/p39GNdgAzv8BcW6yK9Ubg=</hash-data></info-hash></header><info /></wc-request:request>"#
        XCTAssertEqual(String(decoding: envelope.bytes, as: UTF8.self), expected)
    }

    func testR7RecordScopedGetThings() throws {
        var info = XMLWriter()
        info.startElement("info")
        info.startElement("group")
        try info.attribute("max", "1")
        info.startElement("filter")
        try info.element("type-id", text: "3d34d87e-7fc1-4153-800f-f56592cb0d17")
        info.endElement()
        info.startElement("format")
        try info.element("section", text: "core")
        info.startElement("xml")
        info.endElement()
        info.endElement()
        info.endElement()
        info.endElement()
        let session = HealthVaultSessionCredential(
            token: Self.sessionToken, sharedSecret: Self.sessionSecret, personID: Self.personID)
        let envelope = try HealthVaultRequestEnvelope.encode(
            method: "GetThings", version: 3, recordID: Self.recordID, auth: .session(session), settings: Self.settings,
            messageTime: Self.instant, info: info
        )
        let body = String(decoding: envelope.bytes, as: UTF8.self)
        XCTAssertTrue(
            body.hasPrefix(
                #"<wc-request:request xmlns:wc-request="urn:com.microsoft.wc.request"><auth><hmac-data algName="HMACSHA256">VYJHFp3SF1Cx9rruPCqyByhICpqi1HCs9Xu1j8IxMMA=</hmac-data></auth>"#
            ), body)
        XCTAssertTrue(body.contains("u4bs4IT3hju5cM2yWewOOaJ3uDkscBlO69mcxGadB/8="))
        let infoRange = try XCTUnwrap(envelope.regions["info"])
        XCTAssertEqual(
            HealthVaultSigning.sha256Base64(Array(envelope.bytes[infoRange])),
            "u4bs4IT3hju5cM2yWewOOaJ3uDkscBlO69mcxGadB/8="
        )
    }

    func testAFragmentInTheInfoIsSignedExactlyAsReceived() throws {
        // Spellings a re-serializing writer would change: single quotes, a comment, CDATA, a character reference,
        // an empty element with a space, a namespace prefix declared outside, and line breaks.
        let received =
            "\n  <blood-glucose><when><date y='2017' m=\"8\"/></when><!-- as measured -->"
            + "<value><mmolPerL>5.5</mmolPerL></value><note><![CDATA[a < b]]>&#xE9;</note><x:ext /></blood-glucose>\n"
        let document = try XMLTree.parse(
            Data(("<thing xmlns:x=\"urn:x\"><data-xml>" + received + "</data-xml></thing>").utf8))
        let fragment = try XCTUnwrap(document.root.children.first { $0.name == "data-xml" }).innerXML
        XCTAssertEqual(fragment.text, received)
        var info = XMLWriter()
        info.startElement("info")
        info.startElement("thing")
        info.startElement("data-xml")
        info.innerXML(fragment)
        info.endElement()
        info.endElement()
        info.endElement()
        let session = HealthVaultSessionCredential(
            token: Self.sessionToken, sharedSecret: Self.sessionSecret, personID: Self.personID)
        let envelope = try HealthVaultRequestEnvelope.encode(
            method: "PutThings", version: 2, recordID: Self.recordID, auth: .session(session), settings: Self.settings,
            messageTime: Self.instant, info: info
        )
        let infoBytes = Data(("<info><thing><data-xml>" + received + "</data-xml></thing></info>").utf8)
        let infoRange = try XCTUnwrap(envelope.regions["info"])
        XCTAssertEqual(Data(envelope.bytes[infoRange]), infoBytes, "the fragment is sent byte for byte")
        // The hash the envelope carries, against one computed by another implementation over the expected bytes.
        let hash = try IndependentDigest.sha256Base64(infoBytes)
        XCTAssertTrue(
            String(decoding: envelope.bytes, as: UTF8.self).contains(
                #"<hash-data algName="SHA256">\#(hash)</hash-data>"#))
    }

    func testInfoHashByteSensitivityTable() {
        let table = [
            "<info/>": "bxTJ7U8Y5SeCj1ySpV5tp/tVnsou4JhSTelplyDKahM=",
            "<info />": "ZbR1gwo184c/YSTAFOCI3/p39GNdgAzv8BcW6yK9Ubg=",
            "<info></info>": "ExqiU9nA5/8kFNbp4EmHg8yLf+3Er7bpTCJw0UZqgnE=",
            "<info><parameters/></info>": "sy38hzsIREKGboN2jEnU0snL15xgDlSn+Uytwg7g3l0=",
            "<info><parameters /></info>": "E+XYMuNGG7NqMlAk7vbG03vAkWwOiBxrZIqv1g9zyc4=",
            "<info><parameters></parameters></info>": "wbZbU43Mk2g3SVIAKIgQGr85LPTcpyLT/UOUhpBQ4f4=",
            "<info>\n   <parameters/>\n</info>": "y4aSl5NIOf4EZD12Yw52A6kJleFain1l8Kxe8/ADjYo=",
        ]
        for (bytes, hash) in table {
            XCTAssertEqual(HealthVaultSigning.sha256Base64(Array(bytes.utf8)), hash, bytes)
        }
    }
}
