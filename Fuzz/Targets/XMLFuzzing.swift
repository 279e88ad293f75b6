import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInHealthVault

/// Reads the input as XML and touches everything a decoder could read.
enum XMLReaderFuzzing {
    static func run(_ data: Data) {
        guard let tree = try? XMLTree.parse(data) else { return }
        visit(tree.root)
    }

    private static func visit(_ root: XMLElementView) {
        var pending = [root]
        while let element = pending.popLast() {
            _ = element.name
            _ = element.namespaceURI
            _ = element.text
            _ = element.path
            _ = element.attribute("id")
            for child in element.children { pending.append(child) }
        }
    }
}

/// Reads the input as a HealthVault response with every generated decoder.
enum HealthVaultFuzzing {
    static func run(_ data: Data) {
        guard let envelope = try? HealthVaultResponseEnvelope(body: data) else { return }
        _ = try? HealthVaultResponseStatus(xml: envelope.status)
        guard let info = try? XMLTree.parse(data).root.child("info")?.asDecodingRoot else { return }
        _ = try? NewApplicationCreationInfo.Response(xml: info)
        _ = try? CreateAuthenticatedSessionToken.Response(xml: info)
        _ = try? GetAuthorizedPeople.Response(xml: info)
        _ = try? GetServiceDefinition.Response(xml: info)
        _ = try? GetPersonInfo.Response(xml: info)
        _ = try? GetThings3.Response(xml: info)
        _ = try? PutThings2.Response(xml: info)
    }
}
