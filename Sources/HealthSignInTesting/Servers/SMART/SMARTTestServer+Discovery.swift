import Foundation
@_spi(Generated) import HealthSignInCore

/// Discovery (the SMART configuration, OpenID metadata, the CapabilityStatement, the key set) and the mix-up
/// attacker's own endpoints.
extension SMARTTestServer {
    private static let capabilities: [JSONValue] = [
        "launch-ehr", "launch-standalone", "client-public", "client-confidential-symmetric",
        "client-confidential-asymmetric", "context-ehr-patient", "context-ehr-encounter", "context-standalone-patient",
        "context-banner", "context-style", "sso-openid-connect", "permission-offline", "permission-patient",
        "permission-user", "permission-v2",
    ]

    func configuration(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let settings = settings
        let root = reached(request).root
        let query = settings.authorizationEndpointQuery.map { "?" + $0 } ?? ""
        var members: [JSONObject.Member] = [
            ("issuer", .string(issuer(request, settings))), ("jwks_uri", .string(root + "/jwks")),
            ("authorization_endpoint", .string(root + "/auth/authorize" + query)),
            ("token_endpoint", .string(root + "/auth/token")), ("revocation_endpoint", .string(root + "/auth/revoke")),
            ("introspection_endpoint", .string(root + "/auth/introspect")),
            ("token_endpoint_auth_methods_supported", ["client_secret_basic", "private_key_jwt", "none"]),
            ("token_endpoint_auth_signing_alg_values_supported", ["RS384", "ES384"]),
            ("grant_types_supported", ["authorization_code", "client_credentials", "refresh_token"]),
            ("scopes_supported", .array((Self.userScopes.sorted() + ["system/*.rs"]).map { .string($0) })),
            ("response_types_supported", ["code"]), ("code_challenge_methods_supported", ["S256"]),
            ("capabilities", .array(Self.capabilities)), ("id_token_signing_alg_values_supported", ["RS256", "ES256"]),
        ]
        members += settings.additionalConfigurationMembers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if settings.strictOpenID { members.append(("authorization_response_iss_parameter_supported", true)) }
        return .json(200, .object(JSONObject(members)))
    }

    func openIDConfiguration(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let root = reached(request).root
        return .json(
            200,
            [
                "issuer": .string(issuer(request, settings)), "jwks_uri": .string(root + "/jwks"),
                "authorization_endpoint": .string(root + "/auth/authorize"),
                "token_endpoint": .string(root + "/auth/token"), "id_token_signing_alg_values_supported": ["RS256"],
                "response_types_supported": ["code"], "subject_types_supported": ["public"],
            ])
    }

    func capabilityStatement(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let root = reached(request).root
        let uris: [JSONValue] = [
            ("authorize", "/auth/authorize"), ("token", "/auth/token"), ("revoke", "/auth/revoke"),
            ("introspect", "/auth/introspect"),
        ].map { ["url": .string($0.0), "valueUri": .string(root + $0.1)] }
        let oauth: JSONValue = [
            "url": "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris", "extension": .array(uris),
        ]
        return .json(
            200,
            [
                "resourceType": "CapabilityStatement", "status": "active", "date": "2026-01-01", "kind": "instance",
                "fhirVersion": "4.0.1", "format": ["json"],
                "rest": [["mode": "server", "security": ["extension": [oauth]]]],
            ])
    }

    /// The public keys id tokens are checked with.
    var keySet: JSONValue {
        let keys = state.current.publishedKeys.compactMap { key -> JSONValue? in
            var members: [JSONObject.Member] = [
                ("kty", .string(key.keyType.rawValue)), ("kid", .text(key.keyID)), ("alg", .text(key.algorithm)),
                ("use", "sig"),
            ]
            let names = key.keyType == .rsa ? ["n", "e"] : ["crv", "x", "y"]
            for name in names {
                guard let value = name == "crv" ? key.curve : key.member(name) else { return nil }
                members.append((name, .string(value)))
            }
            return .object(JSONObject(members))
        }
        return ["keys": .array(keys)]
    }

    // MARK: - The mix-up attacker

    func attackerConfiguration(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let attacker = settings.attacker
        let root = reached(request).origin + "/evil"
        var members: [JSONObject.Member] = [
            ("issuer", .string(attacker.issuer ?? root + "/fhir")), ("jwks_uri", .string(root + "/jwks")),
            ("authorization_endpoint", .string(root + "/auth/authorize")),
            ("token_endpoint", .string(root + "/auth/token")), ("code_challenge_methods_supported", ["S256"]),
            ("capabilities", ["launch-ehr", "launch-standalone", "client-public", "sso-openid-connect"]),
        ]
        if attacker.announcesIssuerParameter {
            members.append(("authorization_response_iss_parameter_supported", true))
        }
        return .json(200, .object(JSONObject(members)))
    }

    /// Sends the browser on to the honest server with the app's own request: `aud` made the honest server's, and
    /// the redirect URI the attacker's setting names.
    func attackerAuthorize(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let settings = state.withValue { state in
            state.attackerAuthorizations += 1
            return state.settings
        }
        let reached = reached(request)
        var forwarded = FormFields()
        for pair in request.query.pairs where pair.name != "launch" {
            switch pair.name {
            case "aud": forwarded.append("aud", reached.fhirBase)
            case "redirect_uri": forwarded.append("redirect_uri", settings.attacker.redirectURI ?? pair.value)
            default: forwarded.append(pair.name, pair.value)
            }
        }
        return .redirect(reached.root + "/auth/authorize?" + forwarded.formEncoded)
    }

    /// Records what a misled app sends the attacker.
    func attackerToken(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let seen = AttackerTokenRequest(
            fields: Array(Set(request.form.pairs.map(\.name))).sorted(),
            hadAuthorization: request.header("Authorization") != nil)
        state.withValue { $0.attackerTokenRequests.append(seen) }
        return .json(400, ["error": "invalid_grant"])
    }

    /// Records whether a search that followed a next link off the honest server carried the access token.
    func attackerSearch(_ request: ReceivedRequest) -> HTTPResponseMessage {
        state.withValue { $0.attackerSearches.append(request.header("Authorization") != nil) }
        return .json(200, ["resourceType": "Bundle", "type": "searchset", "entry": []])
    }
}
