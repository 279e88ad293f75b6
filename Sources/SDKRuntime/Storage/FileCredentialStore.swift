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
/// The directory is created with mode 0700 and every file with 0600. A write goes to a new temporary file in the
/// same directory, is flushed to disk, and is renamed over the old file, so a crash at any point leaves the old
/// value or the new one, never a torn file. Leftover temporary files from a crash are ignored.
///
/// Processes that share the directory take turns through ``lock(_:)``: an advisory `flock(2)` on a hidden
/// `.<key>.lock` file beside the value (present only while the lock is held), so two server processes, or a tool
/// and a server, refresh a rotating token once between them.
public final class FileCredentialStore: CredentialStore, @unchecked Sendable {
    // @unchecked: the store holds only immutable configuration; the file system does the synchronisation, and
    // writes serialise on `writeLock` so concurrent writers of one key do not race on the rename.
    private let directory: URL
    private let writeLock = Lock()
    private let beforeRename: (@Sendable (URL) throws -> Void)?

    /// Creates a store in `directory`, creating it (mode 0700) if needed.
    public convenience init(directory: URL) throws {
        try self.init(directory: directory, beforeRename: nil)
    }

    /// Creates a store whose writes call `beforeRename` with the temporary file just before renaming it, so tests
    /// can simulate a crash mid-write.
    init(directory: URL, beforeRename: (@Sendable (URL) throws -> Void)?) throws {
        self.directory = directory
        self.beforeRename = beforeRename
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The file that holds `key`.
    public func fileURL(for key: String) -> URL {
        directory.appendingPathComponent(Self.fileName(for: key))
    }

    /// The bytes under `key`, or nil.
    public func read(_ key: String) throws -> Data? {
        let url = fileURL(for: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    /// Replaces the value under `key` atomically.
    public func write(_ data: Data, for key: String) throws {
        try writeLock.withLock {
            let target = fileURL(for: key)
            let temporary = directory.appendingPathComponent(".\(Self.fileName(for: key)).\(UUID().uuidString).tmp")
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            guard descriptor >= 0 else { throw CredentialStoreError.systemError(key: key, operation: "create a file for", code: errno) }
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
    }

    /// Takes the lock on `key` that every process using this directory shares (`flock` on `.<key>.lock`).
    public func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
        try await FileLock.acquire(at: directory.appendingPathComponent("." + Self.fileName(for: key) + ".lock"))
    }

    /// Removes `key`.
    public func remove(_ key: String) throws {
        try writeLock.withLock {
            let url = fileURL(for: key)
            guard unlink(url.path) == 0 || errno == ENOENT else {
                throw CredentialStoreError.systemError(key: key, operation: "remove", code: errno)
            }
            syncDirectory()
        }
    }

    /// Flushes the directory entry so a rename or removal survives a power loss.
    private func syncDirectory() {
        let descriptor = open(directory.path, O_RDONLY)
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
