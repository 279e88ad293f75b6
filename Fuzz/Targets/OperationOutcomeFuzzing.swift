import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInKoppeltaal

/// Reads the input as a FHIR OperationOutcome in both encodings.
enum OperationOutcomeFuzzing {
    static func run(_ data: Data) {
        _ = try? JSONCoding.decode(FHIROperationOutcome.self, from: data)
        if let tree = try? XMLTree.parse(data) {
            _ = try? FHIROperationOutcome(xml: tree.root)
        }
    }
}
