import Foundation
import HealthSignInCore

/// The inputs the benchmarks work on.
enum Samples {
    static let peopleNamespace = "urn:com.microsoft.wc.methods.response.GetAuthorizedPeople"

    /// A GetAuthorizedPeople response with `people` people, each with one record carrying every attribute.
    static func authorizedPeopleResponse(people: Int) -> Data {
        var xml =
            #"<?xml version="1.0" encoding="utf-8"?><response><status><code>0</code></status>"#
            + #"<wc:info xmlns:wc="\#(peopleNamespace)"><response-results>"#
        xml.reserveCapacity(people * 1_200 + 300)
        for index in 0..<people {
            let id = String(format: "cc5e5771-4da7-4961-a758-%012d", index)
            xml +=
                "<person-info><person-id>\(id)</person-id><name>Alex Example \(index)</name>"
                + "<selected-record-id>9c863988-e2aa-440e-8c11-7ba4750ba4c8</selected-record-id><more-records>false</more-records>"
                + #"<record id="9c863988-e2aa-440e-8c11-7ba4750ba4c8" record-custodian="1" rel-type="1" rel-name="Self" "#
                + #"auth-expires="2018-08-10T12:34:56Z" auth-expired="false" display-name="Alex" state="ReadOnly" "#
                + #"date-created="2016-07-12T22:14:36.69Z" max-size-bytes="4294967296" size-bytes="12345" "#
                + #"app-record-auth-action="ReauthorizationRequired" auto-reconcile-documents="true" app-specific-record-id="a&amp;b" "#
                + #"location-country="NL" location-state-province="NL-NH" date-updated="2017-01-02T03:04:05.006Z" "#
                + #"latest-operation-sequence-number="9007199254740993" record-app-auth-created-date="2017-08-10T12:34:56+02:00">"#
                + "Alex &lt;primary&gt;</record>"
                + "<preferred-culture><language>nl</language><country>NL</country></preferred-culture>"
                + "<location><country>NL</country><state-province>NL-NH</state-province></location></person-info>"
        }
        xml += "<more-results>false</more-results></response-results></wc:info></response>"
        return Data(xml.utf8)
    }

    /// A session credential with a 32-byte shared secret.
    static let session = HealthVaultSessionCredential(
        token: "ASAAAAsession-token-of-realistic-length-0123456789abcdefghijklmnopqrstuvwxyz==",
        sharedSecret: Data(repeating: 7, count: 32).base64EncodedString(),
        personID: UUID(uuidString: "cc5e5771-4da7-4961-a758-d7714223d9ab")
    )

    /// A child application credential.
    static let application = HealthVaultApplicationCredential(
        applicationID: UUID(uuidString: "b9ebc0b5-aa35-4d1a-9d5b-2c5d6b7e8f90")!,
        sharedSecret: Data(repeating: 9, count: 32).base64EncodedString()
    )

    /// The Koppeltaal seed's token response.
    static let koppeltaalTokenResponse = """
        {"access_token": "f3d421f4-d036-468a-b9aa-de9c777ede95", "token_type": "Bearer", "expires_in": 900,
         "refresh_token": "e54a2533-df44-4e32-bc4d-820c05b2aed0", "scope": "patient/*.*",
         "patient": "https://ggzeindhoven.minddistrict.com/Patient/72308",
         "resource": "https://ggzeindhoven.minddistrict.com/RelatedPerson/452"}
        """

    /// A Koppeltaal 2.0 Patient as a module reads it: profile members, and a few the model keeps as they are.
    static let koppeltaal2Patient = #"""
        {"resourceType": "Patient", "id": "a1b2c3", "meta": {"versionId": "3", "lastUpdated": "2026-11-30T09:00:00Z",
         "profile": ["http://koppeltaal.nl/fhir/StructureDefinition/KT2Patient"]},
         "extension": [{"url": "http://koppeltaal.nl/fhir/StructureDefinition/resource-origin",
          "valueReference": {"reference": "Device/d7f3"}}],
         "identifier": [{"use": "official", "system": "http://fhir.nl/fhir/NamingSystem/bsn", "value": "999911120"},
          {"system": "https://example.org/patients", "value": "P-0042"}],
         "active": true,
         "name": [{"use": "official", "family": "van Putten", "given": ["Johanna", "Petronella"],
          "prefix": ["mevr."]}],
         "telecom": [{"system": "email", "value": "j.vanputten@example.org", "use": "home"},
          {"system": "phone", "value": "+31 20 123 4567", "use": "mobile", "rank": 2}],
         "gender": "female", "birthDate": "1968-04-17",
         "address": [{"use": "home", "line": ["Kerkstraat 12"], "city": "Amsterdam", "postalCode": "1017 GC",
          "country": "NL"}],
         "communication": [{"language": {"coding": [{"system": "urn:ietf:bcp:47", "code": "nl"}]},
          "preferred": true}]}
        """#

    /// A Vital token response.
    static let vitalTokenResponse =
        #"{"access_token": "vat_0123456789abcdefghijklmnopqrstuv", "refresh_token": "vrt_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH", "expires_in": 3600}"#

    /// A Vital sign-in token for `userID` in the US sandbox (its signature is not checked by the SDK).
    static func vitalSignInToken(userID: UUID) -> String {
        let header = Base64URL.encode(Data(#"{"alg":"RS256","typ":"JWT"}"#.utf8))
        let claims =
            #"{"iss":"id-signer-stg-us@vital-id-stg-us.iam.gserviceaccount.com","uid":"\#(userID.uuidString.lowercased())","claims":{"vital_team_id":"team"}}"#
        let jwt = header + "." + Base64URL.encode(Data(claims.utf8)) + ".c2ln"
        return Data(#"{"public_key":"AIza","user_token":"\#(jwt)"}"#.utf8).base64EncodedString()
    }

    /// A SMART server's discovery document.
    static let smartConfiguration = """
        {"authorization_endpoint": "https://ehr.example/auth/authorize", "token_endpoint": "https://ehr.example/auth/token",
         "capabilities": ["launch-standalone"], "code_challenge_methods_supported": ["S256"]}
        """

    /// A SMART token response with a patient in context.
    static let smartTokenResponse = """
        {"access_token": "smart-access", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "smart-refresh",
         "scope": "launch/patient offline_access patient/*.rs", "patient": "123"}
        """

    /// A SMART Backend Services token response.
    static let smartBackendTokenResponse =
        #"{"access_token": "backend-access", "token_type": "Bearer", "expires_in": 300, "scope": "system/*.rs"}"#

    /// The SMART IG's example P-384 key, whose private part is published.
    static let backendKey = """
        {"kty": "EC", "crv": "P-384", "kid": "afb27c284f2d93959c18fa0320e32060", "alg": "ES384",
         "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r",
         "y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI",
         "d": "WcrTiYk8jbI-Sd1sKNpqGmELWGG08bf_y9SSlnC4cpAl5GRdHHN9gKYlPvMFqiJ5"}
        """
}
