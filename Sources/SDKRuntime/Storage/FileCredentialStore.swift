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
    private let writeLock = Lock()
    private let beforeRename: (@Sendable (URL) throws -> Void)?

    /// Creates a store in `directory`, creating it (mode 0700) and its parents if needed.
    ///
    /// - Throws: ``CredentialStoreError/unsafeLocation(path:problem:)`` when `directory` is a symbolic link, not a
    ///   directory, owned by another user, or writable by its group or others;
    ///   ``CredentialStoreError/systemError(key:operation:code:)`` when it cannot be created.
    public convenience init(directory: URL) throws {
        try self.init(directory: directory, beforeRename: nil)
    }

    /// Creates a store whose writes call `beforeRename` with the temporary file just before renaming it, so tests
    /// can simulate a crash mid-write.
    init(directory: URL, beforeRename: (@Sendable (URL) throws -> Void)?) throws {
        self.directory = directory
        self.beforeRename = beforeRename
        try Self.prepare(directory.standardizedFileURL.path)
    }

    /// Creates `path` (0700) and its missing parents, then checks that it is safe to keep secrets in.
    private static func prepare(_ path: String) throws {
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
        try writeLock.withLock {
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
