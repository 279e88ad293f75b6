import HealthSignInCredentials

/// The PostgreSQL store could not do what it was asked. The messages name the key and the operation, never a stored
/// value or the connection's password.
///
/// The credential lifecycle passes these on as they are: a store it cannot reach is an error for the call, never a
/// reason to sign anyone out.
public enum PostgresCredentialStoreError: Error, Hashable, SDKError {
    /// The server could not be reached, or the connection was lost, within the store's timeouts; nothing is known
    /// to have changed. Transient: a later call may succeed. `detail` names the cause: no answer within the deadline,
    /// connection refused, connection lost, or the server shutting down or starting (with its SQLSTATE).
    case unavailable(key: String, operation: String, detail: String)
    /// The server refused the statement (`sqlState`, such as `42501` for a missing privilege).
    case refused(key: String, operation: String, sqlState: String)
    /// The table name in the configuration is not a plain lowercase SQL identifier.
    case invalidTableName(String)
    /// The configuration was made for an app's `PostgresClient` (it has no connection settings) but given to the
    /// initializer that opens the store's own connections.
    case missingConnection
    /// The table was migrated by a newer version of this package (`found`) than this one knows (`supported`), so this
    /// one leaves it alone.
    case newerSchema(table: String, found: Int, supported: Int)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unavailable(let key, let operation, let detail):
            return "The credential store could not \(operation) '\(key)': PostgreSQL is unavailable (\(detail))"
        case .refused(let key, let operation, let sqlState):
            return "PostgreSQL refused to \(operation) '\(key)': \(Self.meaning(of: sqlState)) (SQLSTATE \(sqlState))"
        case .missingConnection:
            return "The store's configuration has no connection settings; pass one, or use init(client:configuration:)"
        case .invalidTableName(let name):
            return "'\(name)' is not a table name the store accepts: use lowercase letters, digits and _, at most 40"
        case .newerSchema(let table, let found, let supported):
            return "The table '\(table)' has schema version \(found); this version of the store knows up to "
                + "\(supported): update the package rather than use an older one on newer data"
        }
    }

    /// `ErrorRecovery.retryLater` when the server was unavailable or refused for a passing reason (a serialization
    /// failure, a deadlock, a lack of resources); `ErrorRecovery.reconfigure` otherwise.
    public var recovery: ErrorRecovery {
        switch self {
        case .unavailable: return .retryLater
        case .refused(_, _, let sqlState):
            return ["40", "53", "57"].contains(String(sqlState.prefix(2))) ? .retryLater : .reconfigure
        case .invalidTableName, .newerSchema, .missingConnection: return .reconfigure
        }
    }

    /// What a SQLSTATE's class means, in words.
    static func meaning(of sqlState: String) -> String {
        switch sqlState.prefix(2) {
        case "28": return "authentication failed"
        case "42": return sqlState == "42501" ? "permission denied" : "the statement does not fit the database"
        case "40": return "the transaction was rolled back (serialization failure or deadlock)"
        case "53": return "the server lacks resources"
        case "57": return "the server is shutting down or cancelled the statement"
        case "3D": return "the database does not exist"
        default: return "the statement failed"
        }
    }
}
