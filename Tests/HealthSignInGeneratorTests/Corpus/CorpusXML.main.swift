import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInTesting

// Exercises the generated CorpusXML family: `things.xml` round-trips byte for byte through the generated XML codec,
// each thing's `data-xml` is kept exactly, and a request carrying it is sent with it verbatim inside the signed
// `<info>`. Prints the request body after `body:` for the test to check the info hash independently.

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        print("FAIL: " + message())
        exit(1)
    }
}

let fixture = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let response = try PutThings.Response(xml: try XMLTree.parse(fixture).root)
var writer = XMLWriter()
writer.startElement("info")
// The response is only read; the request carries the same things and is written.
try PutThings.Request(thing: response.thing).writeXML(&writer, context: .empty)
writer.endElement()
check(Data(writer.bytes) == fixture, "not byte for byte:\n\(String(decoding: writer.bytes, as: UTF8.self))")
check(response.thing.count == 2, "two things")
let first = response.thing[0]
check(
    first.dataXML?.text.contains("<![CDATA[a < b]]>") == true,
    "the fragment keeps CDATA: \(String(describing: first.dataXML))")
check(first.version == 3 && first.weight == 1.5 && first.small == -3 && first.blob == Data([0, 1, 2, 255]), "scalars")
check(first.note == nil && first.source == "device", "the allOf part's fields")
check(try first.dataXML?.tree().first?.name == "blood-glucose", "the fragment reads as a tree")
check(response.thing[1].dataXML == XMLFragment(), "an empty fragment")

do {
    try PutThings.Request(thing: []).validate()
    check(false, "minItems")
} catch let error as SchemaValidationError {
    check(error.path == "/thing", "\(error)")
}

let transport = RecordingTransport(responses: [
    HTTPResponseMessage(
        status: 200,
        body: Data(
            #"<response><status><code>0</code></status><wc:info xmlns:wc="urn:com.example.put-things"></wc:info></response>"#
                .utf8))
])
let client = CorpusXMLAPIClient(configuration: .init(transport: transport, envelope: .init(clientVersion: "corpus")))
let session = HealthVaultSessionCredential(token: "token", sharedSecret: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
_ = try await client.putThings(PutThings.Request(thing: [first]), session: session)
let body = String(decoding: transport.requests.first?.body ?? Data(), as: UTF8.self)
check(body.contains("<data-xml>" + (first.dataXML?.text ?? "") + "</data-xml>"), "the fragment is sent verbatim")
print("body:" + body)
