import Foundation
@_spi(Generated) import HealthSignInCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store that keeps each value in its own file, readable and writable by the owner only.
///
/// What it guarantees, on Linux and on Apple platforms:
/// - **The directory is checked, with every directory above it.** The store's directory must be a real directory
///   (not a symbolic link), owned by this user and writable by nobody else. Each directory above it, from `/` down,
///   must be owned by root or this user and not writable by its group or others, unless it has the sticky bit (as
///   `/tmp` has): otherwise someone else could rename a directory on the path and put their own in its place. A
///   symbolic link above the directory is followed only when root or this user owns it (so `/var` on macOS, a link to
///   `/private/var` that root owns, works); any other is refused, and then the real path must be given. A location
///   that fails a check throws ``CredentialStoreError/unsafeLocation(path:problem:)`` naming it, before anything is
///   read, written or created there.
/// - **Missing directories are private.** The directory and any missing parent are created with mode 0700, each in
///   one `mkdirat(2)` inside its checked parent, so none is open to others even for a moment, and others cannot list
///   the names of what the store keeps (XDG asks the same of `~/.local/share`).
/// - **The directory is opened once.** The checks walk the path one component at a time (`openat(2)` with
///   `O_NOFOLLOW`, then `fstat(2)` on what was opened), and the store keeps the directory open for its lifetime.
///   Every read, write, removal and lock names its file relative to that open directory, so renaming the directory
///   or any parent afterwards, or putting a symbolic link in its place, cannot make the store read a value planted
///   elsewhere or write a secret elsewhere: it keeps using the directory it checked.
/// - **Values are regular files.** They are opened with `O_NOFOLLOW`, `O_NONBLOCK` and `O_CLOEXEC` and checked with
///   `fstat(2)`: a symbolic link in place of a value is refused rather than followed, a FIFO, socket, device or
///   directory is refused without blocking (``CredentialStoreError/LocationProblem/notARegularFile``), and no
///   descriptor leaks into a child process. Files are created with mode 0600.
/// - **Writes are atomic.** A write goes to a new temporary file in the same directory, is flushed to disk, and is
///   renamed over the old file, and the directory is flushed, so a crash at any point leaves the old value or the
///   new one, never a torn file. Leftover temporary files from a crash are ignored.
///
/// Reads, writes and removals run on a thread of their own, never on one of Swift's cooperative pool, since a write
/// waits for the disk (`fsync`). ``contains(_:)`` and ``version(of:)``, which sessions ask before every use, are one
/// `fstatat(2)` of the directory entry and run where they are called.
///
/// Processes that share the directory take turns through ``lock(_:)``: an advisory `flock(2)` on a hidden
/// `.<key>.lock` file beside the value (present only while the lock is held), so two server processes, or a tool
/// and a server, refresh a rotating token once between them. They must run as the same user.
public final class FileCredentialStore: CredentialStore, @unchecked Sendable {
    // @unchecked: the store holds only immutable configuration and its open directory; the file system does the
    // synchronisation, and writes serialise on `writeLock` so concurrent writers of one key do not race on the
    // rename.
    private let directory: OpenDirectory
    private let directoryURL: URL
    private let lockTimeout: TimeInterval
    private let writeLock = Lock()
    private let beforeRename: (@Sendable (URL) throws -> Void)?

    /// Creates a store in `directory`, creating it and its missing parents (mode 0700), after checking it and every
    /// directory above it; the store keeps it open and never goes by its path again.
    ///
    /// - Parameters:
    ///   - directory: where the values and lock files are kept.
    ///   - lockTimeout: how long ``lock(_:)`` waits for another holder, in seconds, before it throws
    ///     ``CredentialStoreError/lockTimedOut(key:seconds:)``.
    /// - Throws: ``CredentialStoreError/unsafeLocation(path:problem:)`` when `directory` is a symbolic link, not a
    ///   directory, owned by another user, or writable by its group or others, or when a directory above it is
    ///   owned by a user other than root and this one, is writable by its group or others without the sticky bit,
    ///   or is a symbolic link another user owns; ``CredentialStoreError/systemError(key:operation:code:)`` when a
    ///   directory cannot be created, opened or inspected.
    public convenience init(directory: URL, lockTimeout: TimeInterval = 30) throws {
        try self.init(directory: directory, lockTimeout: lockTimeout, beforeRename: nil)
    }

    /// Creates a store whose writes call `beforeRename` with the temporary file just before renaming it, so tests
    /// can simulate a crash mid-write.
    init(directory: URL, lockTimeout: TimeInterval = 30, beforeRename: (@Sendable (URL) throws -> Void)?) throws {
        self.directory = try PrivateDirectory.open(directory)
        self.directoryURL = directory
        self.lockTimeout = lockTimeout
        self.beforeRename = beforeRename
    }

    /// The file that holds `key`, under the path the store was created with; the store itself reads and writes it
    /// through the directory it opened then, wherever that directory is now.
    public func fileURL(for key: String) -> URL {
        directoryURL.appendingPathComponent(Self.fileName(for: key))
    }

    /// Whether a value is stored under `key`, from the directory entry alone (one `fstatat(2)`): what sessions sharing
    /// the store ask before every use, since the store has no change feed.
    public func contains(_ key: String) async throws -> Bool {
        var info = stat()
        guard fstatat(directory.descriptor, Self.fileName(for: key), &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            guard errno == ENOENT else {
                throw CredentialStoreError.systemError(key: key, operation: "inspect", code: errno)
            }
            return false
        }
        return true
    }

    /// The file's identity, size and times (every write is a new file renamed into place), or nil when there is
    /// none: one `stat`, where comparing the bytes would open and read the file.
    public func version(of key: String) async throws -> Data? {
        var info = stat()
        guard fstatat(directory.descriptor, Self.fileName(for: key), &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            guard errno == ENOENT else {
                throw CredentialStoreError.systemError(key: key, operation: "inspect", code: errno)
            }
            return nil
        }
        #if canImport(Darwin)
            let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        let fields: [Int64] = [
            Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(modified.tv_sec),
            Int64(modified.tv_nsec), Int64(changed.tv_sec), Int64(changed.tv_nsec),
        ]
        return fields.withUnsafeBytes { Data($0) }
    }

    /// The bytes under `key`, or nil.
    ///
    /// - Throws: ``CredentialStoreError/unsafeLocation(path:problem:)`` when the key's file is a symbolic link or not
    ///   a regular file (it is not followed or read, and reading does not wait for a FIFO's writer).
    public func read(_ key: String) async throws -> Data? {
        try await offloaded { try self.readNow(key) }
    }

    private func readNow(_ key: String) throws -> Data? {
        let name = Self.fileName(for: key)
        let path = fileURL(for: key).path
        let descriptor = openat(directory.descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw CredentialStoreError.unsafeLocation(path: path, problem: .symbolicLink)
            // Linux refuses to open a socket.
            case ENXIO: throw CredentialStoreError.unsafeLocation(path: path, problem: .notARegularFile)
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
    public func write(_ data: Data, for key: String) async throws {
        try await offloaded { try self.writeLock.withLock { try self.writeUnlocked(data, for: key) } }
    }

    /// Stores `new` (or removes the key, for nil) if the file holds `expected`: atomically between the users of
    /// this store object, and between processes while they hold ``lock(_:)``, as the credential lifecycle does.
    public func replace(_ expected: Data?, with new: Data?, for key: String) async throws -> Bool {
        try await offloaded {
            try self.writeLock.withLock {
                guard try self.readNow(key) == expected else { return false }
                if let new { try self.writeUnlocked(new, for: key) } else { try self.removeUnlocked(key) }
                return true
            }
        }
    }

    /// Writes a temporary file, flushes it and renames it over the key's file; the caller holds `writeLock`.
    private func writeUnlocked(_ data: Data, for key: String) throws {
        let target = Self.fileName(for: key)
        let temporary = ".\(target).\(UUID().uuidString).tmp"
        let descriptor = openat(
            directory.descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
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
            unlinkat(directory.descriptor, temporary, 0)
            throw CredentialStoreError.systemError(key: key, operation: "write", code: failure)
        }
        do {
            try beforeRename?(directoryURL.appendingPathComponent(temporary))
        } catch {
            unlinkat(directory.descriptor, temporary, 0)
            throw error
        }
        guard renameat(directory.descriptor, temporary, directory.descriptor, target) == 0 else {
            let code = errno
            unlinkat(directory.descriptor, temporary, 0)
            throw CredentialStoreError.systemError(key: key, operation: "replace", code: code)
        }
        syncDirectory()
    }

    /// Takes the lock on `key` that every process using this directory shares (`flock` on `.<key>.lock`, made in
    /// the directory the store opened), waiting for another holder at most the store's lock timeout.
    public func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
        try await FileLock.acquire(named: Self.lockFileName(for: key), in: directory, timeout: lockTimeout)
    }

    /// The name of the hidden lock file of `key`.
    static func lockFileName(for key: String) -> String { "." + fileName(for: key) + ".lock" }

    /// Removes `key`.
    public func remove(_ key: String) async throws {
        try await offloaded { try self.writeLock.withLock { try self.removeUnlocked(key) } }
    }

    /// Unlinks the key's file; the caller holds `writeLock`.
    private func removeUnlocked(_ key: String) throws {
        guard unlinkat(directory.descriptor, Self.fileName(for: key), 0) == 0 || errno == ENOENT else {
            throw CredentialStoreError.systemError(key: key, operation: "remove", code: errno)
        }
        syncDirectory()
    }

    /// Flushes the directory entry so a rename or removal survives a power loss.
    private func syncDirectory() {
        _ = fsync(directory.descriptor)
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
