import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory only this user can change, for credentials and lock files: created with mode 0700 in one `mkdir(2)`
/// when missing (parents 0755), and refused when it is a symbolic link, not a directory, another user's, or
/// writable by its group or others.
enum PrivateDirectory {
    /// Creates `directory` (0700) and its missing parents, then checks that it is safe to keep secrets in.
    ///
    /// - Throws: ``CredentialStoreError/unsafeLocation(path:problem:)``,
    ///   ``CredentialStoreError/systemError(key:operation:code:)``.
    static func prepare(_ directory: URL) throws {
        let path = directory.standardizedFileURL.path
        var prefix = ""
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        for (index, component) in components.enumerated() {
            prefix += "/" + component
            let isLast = index == components.count - 1
            // Parents get the usual mode; only the store's own directory needs to be private.
            if mkdir(prefix, isLast ? 0o700 : 0o755) != 0, errno != EEXIST {
                throw CredentialStoreError.systemError(key: prefix, operation: "create the directory", code: errno)
            }
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw CredentialStoreError.systemError(key: path, operation: "inspect the directory", code: errno)
        }
        let problem: CredentialStoreError.LocationProblem?
        switch info.st_mode & S_IFMT {
        case S_IFLNK: problem = .symbolicLink
        case S_IFDIR:
            if info.st_uid != geteuid() {
                problem = .ownedByAnotherUser(uid: UInt32(info.st_uid))
            } else if info.st_mode & 0o022 != 0 {
                problem = .writableByOthers(mode: UInt16(info.st_mode & 0o7777))
            } else {
                problem = nil
            }
        default: problem = .notADirectory
        }
        if let problem { throw CredentialStoreError.unsafeLocation(path: path, problem: problem) }
    }
}

/// A directory for the lock files of a store that keeps its values elsewhere, such as a Keychain store an app shares
/// with its extensions (a directory in their app group container). It is checked as a file store checks its own
/// directory before a lock file is made there, and a lock is waited for at most `timeout` seconds.
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
    /// - Throws: ``CredentialStoreError/unsafeLocation(path:problem:)`` when the directory is not private to this
    ///   user (nothing is made there), ``CredentialStoreError/lockTimedOut(key:seconds:)`` after `timeout`, and
    ///   what ``FileLock/acquire(at:timeout:)`` throws.
    public func lock(_ name: String) async throws -> FileLock {
        try PrivateDirectory.prepare(url)
        return try await FileLock.acquire(at: FileCredentialStore.lockFile(for: name, in: url), timeout: timeout)
    }
}
