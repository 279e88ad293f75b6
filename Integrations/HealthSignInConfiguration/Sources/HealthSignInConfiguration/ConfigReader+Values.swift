import Configuration
import Foundation
import HealthSignInCore

/// The typed reads the entry points share, each failing with a ``ConfigValueError`` that names its key.
extension ConfigReader {
    /// The string under `key`, required.
    func required(_ key: String, isSecret: Bool = false) throws -> String {
        guard let value = string(forKey: ConfigKey(key), isSecret: isSecret), !value.isEmpty else {
            throw ConfigValueError(key: key, problem: "is missing")
        }
        return value
    }

    /// The http or https URL under `key`, required.
    func url(_ key: String) throws -> URL {
        let text = try required(key)
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else { throw ConfigValueError(key: key, problem: "is not an http or https URL") }
        return url
    }

    /// A comma-separated list under `key`, empty when there is none.
    func list(_ key: String) -> [String] {
        (string(forKey: ConfigKey(key)) ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The private key under `prefix.private.key`: a JSON Web Key, or PEM (PKCS #8 or the key types' own) with its
    /// key id under `prefix.key.id`.
    func privateKey(_ prefix: String) throws -> JSONWebKey {
        let key = prefix + ".private.key"
        let text = try required(key, isSecret: true)
        do {
            if text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("-----BEGIN") {
                return try JSONWebKey(pem: text, keyID: try required(prefix + ".key.id"))
            }
            return try JSONWebKey(json: Data(text.utf8))
        } catch let error as ConfigValueError {
            throw error
        } catch {
            throw ConfigValueError(key: key, problem: "is not a private key as a JSON Web Key or PEM")
        }
    }

    /// The signing algorithm under `prefix.key.algorithm`, or `fallback` for the key's type.
    func algorithm(_ prefix: String, for key: JSONWebKey, fallback: (JSONWebKey.KeyType) -> JWSAlgorithm) throws
        -> JWSAlgorithm
    {
        let name = prefix + ".key.algorithm"
        guard let text = string(forKey: ConfigKey(name)) else { return fallback(key.keyType) }
        guard let algorithm = JWSAlgorithm(rawValue: text.uppercased()) else {
            throw ConfigValueError(
                key: name, problem: "is not one of \(JWSAlgorithm.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return algorithm
    }

    /// Runs `make`, naming `key` in the error it throws unless that is a ``ConfigValueError`` already.
    func checked<Value>(_ key: String, _ problem: String, _ make: () throws -> Value) throws -> Value {
        do {
            return try make()
        } catch let error as ConfigValueError {
            throw error
        } catch {
            throw ConfigValueError(key: key, problem: problem + ": \(error)")
        }
    }
}
