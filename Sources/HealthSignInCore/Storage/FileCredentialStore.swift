import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store that keeps each value in its own file, readable and writable by the owner only.
///
/// The directory is created with mode 0700 in one `mkdir(2)`, so it is never open to others even for a moment, and
/// every file with 0600. An existing directory is used only if it is a real directory (not a symbolic link), owned
/// by this user and writable by nobody else; otherwise the store throws
/// ``CredentialStoreError/unsafeLocation(path:problem:)`` before anything is read or written. Files are opened with
/// `O_NOFOLLOW` and `O_CLOEXEC`: a symbolic link planted in place of a value is refused rather than followed, and no
/// descriptor leaks into a child process.
///
/// A write goes to a new temporary file in the same directory, is flushed to disk, and is renamed over the old file,
/// so a crash at any point leaves the old value or the new one, never a torn file. Leftover temporary files from a
/// crash are ignored.
///
/// Processes that share the directory take turns through ``lock(_:)``: an advisory `flock(2)` on a hidden
/// `.<key>.lock` file beside the value (present only while the lock is held), so two server processes, or a tool
/// and a server, refresh a rotating token once between them.
public final class FileCredentialStore: CredentialStore, @unchecked Sendable {
    // @unchecked: the store holds only immutable configuration; the file system does the synchronisation, and
    // writes serialise on `writeLock` so concurrent writers of one key do not race on the rename.
    private let directory: URL
    private let lockTimeout: TimeInterval
    private let writeLock = Lock()
    private let beforeRename: (@Sendable (URL) throws -> Void)?

    /// Creates a store in `directory`, creating it (mode 0700) and its parents if needed.
    ///
    /// - Parameters:
    ///   - directory: where the values and lock files are kept.
    ///   - lockTimeout: how long ``lock(_:)`` waits for another holder, in seconds, before it throws
    ///     ``CredentialStoreError/lockTimedOut(key:seconds:)``.
    /// - Throws: ``CredentialStoreError/unsafeLocation(path:problem:)`` when `directory` is a symbolic link, not a
    ///   directory, owned by another user, or writable by its group or others;
    ///   ``CredentialStoreError/systemError(key:operation:code:)`` when it cannot be created.
    public convenience init(directory: URL, lockTimeout: TimeInterval = 30) throws {
        try self.init(directory: directory, lockTimeout: lockTimeout, beforeRename: nil)
    }

    /// Creates a store whose writes call `beforeRename` with the temporary file just before renaming it, so tests
    /// can simulate a crash mid-write.
    init(directory: URL, lockTimeout: TimeInterval = 30, beforeRename: (@Sendable (URL) throws -> Void)?) throws {
        self.directory = directory
        self.lockTimeout = lockTimeout
        self.beforeRename = beforeRename
        try PrivateDirectory.prepare(directory)
    }

    /// The file that holds `key`.
    public func fileURL(for key: String) -> URL {
        directory.appendingPathComponent(Self.fileName(for: key))
    }

    /// The bytes under `key`, or nil.
    ///
    /// - Throws: ``CredentialStoreError/unsafeLocation(path:problem:)`` when the key's file is a symbolic link or not
    ///   a regular file (it is not followed or read).
    public func read(_ key: String) throws -> Data? {
        let path = fileURL(for: key).path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw CredentialStoreError.unsafeLocation(path: path, problem: .symbolicLink)
            case let code: throw CredentialStoreError.systemError(key: key, operation: "open", code: code)
            }
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw CredentialStoreError.systemError(key: key, operation: "inspect", code: errno)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw CredentialStoreError.unsafeLocation(path: path, problem: .notARegularFile)
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw CredentialStoreError.systemError(key: key, operation: "read", code: errno)
            }
            data.append(contentsOf: chunk[..<count])
        }
    }

    /// Replaces the value under `key` atomically.
    public func write(_ data: Data, for key: String) throws {
        try writeLock.withLock { try writeUnlocked(data, for: key) }
    }

    /// Stores `new` (or removes the key, for nil) if the file holds `expected`: atomically between the users of
    /// this store object, and between processes while they hold ``lock(_:)``, as the credential lifecycle does.
    public func replace(_ expected: Data?, with new: Data?, for key: String) throws -> Bool {
        try writeLock.withLock {
            guard try read(key) == expected else { return false }
            if let new { try writeUnlocked(new, for: key) } else { try removeUnlocked(key) }
            return true
        }
    }

    /// Writes a temporary file, flushes it and renames it over the key's file; the caller holds `writeLock`.
    private func writeUnlocked(_ data: Data, for key: String) throws {
        let target = fileURL(for: key)
        let temporary = directory.appendingPathComponent(".\(Self.fileName(for: key)).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CredentialStoreError.systemError(key: key, operation: "create a file for", code: errno)
        }
        var failure: Int32?
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = posixWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if let failure {
            unlink(temporary.path)
            throw CredentialStoreError.systemError(key: key, operation: "write", code: failure)
        }
        try beforeRename?(temporary)
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw CredentialStoreError.systemError(key: key, operation: "replace", code: code)
        }
        syncDirectory()
    }

    /// Takes the lock on `key` that every process using this directory shares (`flock` on `.<key>.lock`), waiting
    /// for another holder at most the store's lock timeout.
    public func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
        try await FileLock.acquire(at: Self.lockFile(for: key, in: directory), timeout: lockTimeout)
    }

    /// The hidden lock file of `key` in `directory`.
    static func lockFile(for key: String, in directory: URL) -> URL {
        directory.appendingPathComponent("." + fileName(for: key) + ".lock")
    }

    /// Removes `key`.
    public func remove(_ key: String) throws {
        try writeLock.withLock { try removeUnlocked(key) }
    }

    /// Unlinks the key's file; the caller holds `writeLock`.
    private func removeUnlocked(_ key: String) throws {
        let url = fileURL(for: key)
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw CredentialStoreError.systemError(key: key, operation: "remove", code: errno)
        }
        syncDirectory()
    }

    /// Flushes the directory entry so a rename or removal survives a power loss.
    private func syncDirectory() {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Keys become file names: letters, digits, `-`, `_` and `.` are kept, anything else is `%XX`.
    static func fileName(for key: String) -> String {
        let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.".utf8)
        let safe = PercentEncoding.encode(key, keeping: kept, spaceAsPlus: false)
        // A leading dot would hide the file and collide with temporary names.
        return (safe.hasPrefix(".") ? "%2E" + safe.dropFirst() : safe) + ".credential"
    }
}

/// `read(2)`, named apart from the store's own `read(_:)`.
@inline(__always)
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.read(descriptor, buffer, count)
    #elseif canImport(Musl)
        return Musl.read(descriptor, buffer, count)
    #else
        return Glibc.read(descriptor, buffer, count)
    #endif
}

/// `write(2)`, named apart from the store's own `write(_:for:)`.
@inline(__always)
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.write(descriptor, buffer, count)
    #elseif canImport(Musl)
        return Musl.write(descriptor, buffer, count)
    #else
        return Glibc.write(descriptor, buffer, count)
    #endif
}
