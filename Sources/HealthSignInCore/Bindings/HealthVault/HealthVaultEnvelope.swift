import Foundation

/// Settings that every HealthVault request header carries.
public struct HealthVaultEnvelopeSettings: Sendable, Hashable {
    /// The client identification in `<version>`, e.g. `HV-Swift/1.0.0 iOS 17.0`.
    public var clientVersion: String
    /// `<language>`, sent together with ``country`` (or neither).
    public var language: String?
    /// `<country>`, sent together with ``language`` (or neither).
    public var country: String?
    /// `<msg-ttl>` in seconds.
    public var messageTTL: Int

    /// Creates settings.
    public init(clientVersion: String, language: String? = "en", country: String? = "US", messageTTL: Int = 1800) {
        self.clientVersion = clientVersion
        self.language = language
        self.country = country
        self.messageTTL = messageTTL
    }
}

/// How a HealthVault request identifies itself in the header.
@_spi(Generated) public enum HealthVaultRequestAuth: Sendable, Hashable {
    /// An anonymous method: `<app-id>` in the header, no `<auth>` and no `<info-hash>`.
    case applicationID(UUID)
    /// An authenticated method: `<auth-session>` in the header, `<info-hash>` over the info, and `<hmac-data>` over
    /// the header keyed with the session secret.
    case session(HealthVaultSessionCredential)
}

/// A signed HealthVault request body, built so that every hash and MAC covers exactly the bytes that are sent.
///
/// The `<info>` bytes are written first and hashed; the `<header>` (with that hash inside) is written and MACed;
/// then the envelope is assembled from those same bytes without re-serializing anything:
///
/// ```
/// <wc-request:request xmlns:wc-request="urn:com.microsoft.wc.request"><auth>…</auth><header>…</header><info>…</info></wc-request:request>
/// ```
@_spi(Generated) public struct HealthVaultRequestEnvelope: Sendable, Hashable {
    /// The request body.
    public let bytes: [UInt8]
    /// Byte ranges of `header`, `info` and `auth` (when present), plus any region the info writer marked (for
    /// example `content`, the signed part of a `CreateAuthenticatedSessionToken` request).
    public let regions: [String: Range<Int>]

    /// The request namespace of every HealthVault method.
    public static let requestNamespace = "urn:com.microsoft.wc.request"

    /// Builds and signs a request.
    ///
    /// - Parameters:
    ///   - method: the wire method name, e.g. `GetAuthorizedPeople`.
    ///   - version: the method version.
    ///   - recordID: the record a record-scoped method acts on.
    ///   - auth: anonymous or session authentication.
    ///   - settings: the header settings.
    ///   - messageTime: the instant for `<msg-time>`.
    ///   - info: a writer holding the complete `<info>…</info>` element.
    public static func encode(
        method: String, version: Int, recordID: UUID? = nil, auth: HealthVaultRequestAuth,
        settings: HealthVaultEnvelopeSettings, messageTime: Date, info: XMLWriter
    ) throws -> HealthVaultRequestEnvelope {
        let infoBytes = info.bytes
        var sessionKey: [UInt8]?
        var header = XMLWriter()
        header.startElement("header")
        try header.element("method", text: method)
        try header.element("method-version", text: String(version))
        if let recordID { try header.element("record-id", text: recordID.wireText) }
        switch auth {
        case .applicationID(let applicationID):
            try header.element("app-id", text: applicationID.wireText)
        case .session(let session):
            sessionKey = try HealthVaultSigning.key(fromBase64: session.sharedSecret, name: "session shared secret")
            header.startElement("auth-session")
            try header.element("auth-token", text: session.token)
            if let personID = session.personID {
                header.startElement("offline-person-info")
                try header.element("offline-person-id", text: personID.wireText)
                header.endElement()
            }
            header.endElement()
        }
        if let language = settings.language, let country = settings.country {
            try header.element("language", text: language)
            try header.element("country", text: country)
        }
        try header.element("msg-time", text: messageTime.wireText)
        try header.element("msg-ttl", text: String(settings.messageTTL))
        try header.element("version", text: settings.clientVersion)
        if sessionKey != nil {
            header.startElement("info-hash")
            header.startElement("hash-data")
            try header.attribute("algName", "SHA256")
            try header.text(HealthVaultSigning.sha256Base64(infoBytes))
            header.endElement()
            header.endElement()
        }
        header.endElement()

        var envelope = XMLWriter()
        envelope.startElement("wc-request:request")
        try envelope.attribute("xmlns:wc-request", requestNamespace)
        if let sessionKey {
            try envelope.mark("auth") { writer in
                writer.startElement("auth")
                writer.startElement("hmac-data")
                try writer.attribute("algName", "HMACSHA256")
                try writer.text(HealthVaultSigning.hmacBase64(key: sessionKey, message: header.bytes))
                writer.endElement()
                writer.endElement()
            }
        }
        envelope.mark("header") { $0.raw(header.bytes) }
        let infoRange = envelope.mark("info") { $0.raw(infoBytes) }
        envelope.endElement()

        var regions = envelope.regions
        for (name, range) in info.regions {
            regions[name] = (range.lowerBound + infoRange.lowerBound)..<(range.upperBound + infoRange.lowerBound)
        }
        return HealthVaultRequestEnvelope(bytes: envelope.bytes, regions: regions)
    }
}
