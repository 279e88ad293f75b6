import Foundation
import HealthSignInCore

extension HealthVaultTestServer {
    /// What the HealthVault server takes a request for: a platform method by the name in its header, or a step of
    /// the Shell. The names are the emulator's.
    public struct Operation: TestServerOperation {
        /// The name the emulator counts the operation by.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// `GET …/shell/<instance>/redirect.aspx`: the Shell's sign-in and consent page (`Shell`).
        public static let shell = Self("Shell")
        /// `POST …/shell/<instance>/redirect.aspx/decision`: the user's choice on that page (`Shell:decision`).
        public static let shellDecision = Self("Shell:decision")
        /// `GET …/shell/<instance>/application/complete`: the page the Shell ends on (`Shell:complete`).
        public static let shellComplete = Self("Shell:complete")
        /// `NewApplicationCreationInfo` v1: a new application instance and its creation token.
        public static let newApplicationCreationInfo = Self("NewApplicationCreationInfo")
        /// `GetServiceDefinition` v2: the platform's and the Shell's URLs and the instances.
        public static let getServiceDefinition = Self("GetServiceDefinition")
        /// `CreateAuthenticatedSessionToken` v2: a session token for the application's signed credential.
        public static let createAuthenticatedSessionToken = Self("CreateAuthenticatedSessionToken")
        /// `GetAuthorizedPeople` v1: the people and records that authorized the application.
        public static let getAuthorizedPeople = Self("GetAuthorizedPeople")
        /// `GetPersonInfo` v1: the signed-in person and their records.
        public static let getPersonInfo = Self("GetPersonInfo")
        /// `GetThings` v3: things of a record.
        public static let getThings = Self("GetThings")
        /// `PutThings` v2: things added to or replaced in a record.
        public static let putThings = Self("PutThings")
        /// `RemoveApplicationRecordAuthorization` v1: a record's authorization released.
        public static let removeApplicationRecordAuthorization = Self("RemoveApplicationRecordAuthorization")
        /// A platform request whose header names no method above, or that cannot be read: refused as the platform
        /// refuses it (`platform`).
        public static let unknownMethod = Self("platform")

        /// Every operation, in the order listed above.
        public static let all: [Self] = [
            .shell, .shellDecision, .shellComplete, .newApplicationCreationInfo, .getServiceDefinition,
            .createAuthenticatedSessionToken, .getAuthorizedPeople, .getPersonInfo, .getThings, .putThings,
            .removeApplicationRecordAuthorization, .unknownMethod,
        ]

        /// The operation of a platform request: the method its header names.
        static func platform(_ body: Data) -> Self {
            guard let tree = try? XMLTree.parse(body),
                let header = tree.root.children.first(where: { $0.namespaceURI == nil && $0.isNamed("header") }),
                let method = HealthVaultWire.text(header, "method")
            else { return .unknownMethod }
            return all.first { $0.name == method && $0 != .unknownMethod } ?? .unknownMethod
        }
    }
}
