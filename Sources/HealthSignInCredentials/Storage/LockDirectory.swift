import Foundation

/// A directory for the lock files of a store that keeps its values elsewhere, such as a Keychain store an app shares
/// with its extensions (a directory in their app group container). Each ``lock(_:)`` checks and opens it as a
/// ``FileCredentialStore`` does its own directory (it and every directory above it) before a lock file is made there,
/// and makes the file in the directory it opened; a lock is waited for at most `timeout` seconds.
public struct LockDirectory: Sendable, Hashable {
    /// The directory.
    public let url: URL
    /// How long ``lock(_:)`` waits for another holder, in seconds.
    public let timeout: TimeInterval

    /// A lock directory at `url` whose locks are waited for at most `timeout` seconds.
    public init(_ url: URL, timeout: TimeInterval = 30) {
        self.url = url
        self.timeout = timeout
    }

    /// Takes the lock `name` (a hidden `.<name>.lock` file, `flock`), shared by every process that uses the
    /// directory.
    ///
    /// - Throws: ``CredentialStoreError/unsafeLocation(path:problem:)`` when the directory, or one above it, is not
    ///   safe as ``FileCredentialStore/init(directory:lockTimeout:)`` describes (nothing is made there),
    ///   ``CredentialStoreError/lockTimedOut(key:seconds:)`` after `timeout`, and what
    ///   ``FileLock/acquire(at:timeout:)`` throws.
    public func lock(_ name: String) async throws -> FileLock {
        let directory = try PrivateDirectory.open(url)
        return try await FileLock.acquire(
            named: FileCredentialStore.lockFileName(for: name), in: directory, timeout: timeout)
    }
}
