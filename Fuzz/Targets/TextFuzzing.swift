import Foundation
import HealthSignInHealthVault
import HealthSignInVital

/// Reads the input as a Vital sign-in token.
enum SignInTokenFuzzing {
    static func run(_ data: Data) {
        _ = try? VitalSignInToken(String(decoding: data, as: UTF8.self))
    }
}

/// Reads the input as the URL the HealthVault Shell redirects to.
enum ShellRedirectFuzzing {
    private static let application = UUID(uuidString: "b9ebc0b5-aa35-4d1a-9d5b-2c5d6b7e8f90")!

    static func run(_ data: Data) {
        guard let url = URL(string: String(decoding: data, as: UTF8.self)) else { return }
        _ = try? ShellCompletion(redirect: url, expectedApplicationID: application)
    }
}
