import Foundation
import Koppeltaal
@_spi(Generated) import SDKRuntime

/// Reads the input as a FHIR OperationOutcome in both encodings.
enum OperationOutcomeFuzzing {
    static func run(_ data: Data) {
        _ = try? JSONCoding.decode(OperationOutcome.self, from: data)
        if let tree = try? XMLTree.parse(data) {
            _ = try? OperationOutcome(xml: tree.root)
        }
    }
}
