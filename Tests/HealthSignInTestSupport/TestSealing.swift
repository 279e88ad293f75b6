import Foundation
import HealthSignInCredentials

extension CredentialSealing {
    /// A sealing with one fixed key, for tests whose sealed values need not survive the test.
    public static func testSealing(id: String = "test", byte: UInt8 = 7) throws -> CredentialSealing {
        try CredentialSealing(keys: [id: Data(repeating: byte, count: 32)], current: id)
    }
}
