import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// Reads the input as a key set and a key (a private key must describe itself as private and give a thumbprint),
/// then as a compact JWS checked against fixed public keys: it may verify only with a key that fits its algorithm,
/// and pass as an id token only with a signature that verifies.
enum JOSEFuzzing {
    /// The public halves of the test keys whose private halves signed the seed tokens.
    private static let publicKeys: [JSONWebKey] =
        (try? JSONWebKeySet(
            json: Data(
                #"{"keys":[{"kty":"RSA","kid":"test-rsa","n":"r41pj1uaKXueYXsynZigfEIKcCx78-fIn-G1OHJn2qb9rh8OfcSFI80xFbzBGVfTIwb6WZ-2HKGbDm47IIpnlPin0L7oXukutuYVzXvBE6vXd_6nA1kDu3sZ8jIW7InUlBRJk2pF_KkMEf-MtvaiKCOd647D6y2eaOaJKgkDxm6DKDW9P-CNhk6S6w9q_qMuzGKJVJezbX5jFmOaNAV4t5kCafYty_LFqRS1658tiUyhIWdafkd75pEvyMCnofuDRlpIn2-lkrjDY9QOcuMBBCCz85nGsFWAgRE1kk1_qG1yL4oFfogCa_0od5_vI39IQflsol4imTJsw-Krz18YDw","e":"AQAB"},{"kty":"EC","kid":"test-p256","crv":"P-256","x":"uqDN9LV8qrBGkvB_iPnvWHZ1-4QDvxN_tiowwSyBRvc","y":"23bAIOZkUR3YqQKPuN51m-GJZcfwprM75Un2ycsHuZQ"}]}"#
                    .utf8)))?.keys ?? []

    static func run(_ data: Data) {
        let keys = ((try? JSONWebKeySet(json: data))?.keys ?? []) + [try? JSONWebKey(json: data)].compactMap { $0 }
        for key in keys {
            if key.isPrivate, !key.description.hasSuffix("private)") {
                fatalError("a private key described itself as public")
            }
            _ = key.thumbprint
        }
        let token = String(decoding: data, as: UTF8.self)
        guard let parts = try? JWS.parts(of: token) else { return }
        for key in publicKeys where (try? JWS.verify(token, key: key, algorithms: Set(JWSAlgorithm.allCases))) != nil {
            guard let algorithm = JWSAlgorithm(rawValue: parts.algorithm), algorithm.fits(key) else {
                fatalError("a token verified with a key that does not fit its algorithm")
            }
        }
        // As an id token, it may pass only if it verified with one of the keys.
        let expected = IDToken.Expectations(
            issuer: "https://ehr.example/fhir", clientID: "app", nonce: nil, algorithms: Set(JWSAlgorithm.allCases))
        let keySet = JSONWebKeySet(keys: publicKeys)
        if (try? IDToken(validating: token, keys: keySet, expecting: expected, now: Date(timeIntervalSince1970: 0)))
            != nil,
            !publicKeys.contains(where: {
                (try? JWS.verify(token, key: $0, algorithms: Set(JWSAlgorithm.allCases))) != nil
            })
        {
            fatalError("an id token passed without a signature that verifies")
        }
    }
}
