import Foundation

/// Digests computed by another implementation than the SDK's (Python's `hashlib`), for tests that check the SDK
/// hashed exactly the bytes it should.
public enum IndependentDigest {
    /// SHA-256 of `data`, base64-encoded.
    public static func sha256Base64(_ data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script =
            "import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(open(sys.argv[1], 'rb').read()).digest()).decode())"
        let result = try Subprocess.run(["python3", "-c", script, file.path])
        guard result.status == 0 else { throw DigestFailure(output: result.output) }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Python could not compute the digest.
    public struct DigestFailure: Error, CustomStringConvertible {
        /// What it printed.
        public let output: String
        /// `python3 failed: …`
        public var description: String { "python3 failed: \(output)" }
    }
}
