import Foundation
@_exported import OAuth2

/// The client's entry point.
open class Client {
    public let server: Server
    public init(baseURL: URL) { server = Server(baseURL: baseURL) }
}

/// A FHIR server.
open class Server {
    public let baseURL: URL
    public init(baseURL: URL) { self.baseURL = baseURL }
}

// FHIR models the client re-exports, by the names the SDK's Koppeltaal and HealthVault modules once used.

open class Coding {
    public var code: String?
    public init(code: String?) { self.code = code }
}

open class CodeableConcept {
    public var text: String?
    public init(text: String?) { self.text = text }
}

open class Extension {
    public var url: String?
    public init(url: String?) { self.url = url }
}

open class OperationOutcomeIssue {
    public var severity: IssueSeverity
    public var code: IssueType
    public init(severity: IssueSeverity, code: IssueType) { (self.severity, self.code) = (severity, code) }
}

open class OperationOutcome {
    public var issue: [OperationOutcomeIssue]
    public init(issue: [OperationOutcomeIssue]) { self.issue = issue }
}

open class Location {
    public var name: String?
    public init(name: String?) { self.name = name }
}

public enum IssueSeverity: String { case fatal, error, warning, information }

public enum IssueType: String { case expired, invalid }

public enum Status: String { case active, inactive }
