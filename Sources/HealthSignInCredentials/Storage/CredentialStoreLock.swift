import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock a ``CredentialStore`` holds on one key for everyone who uses the store: other instances in this process
/// and, where the store can, other processes (an app and its extensions sharing a Keychain access group, two server
/// processes sharing a directory).
///
/// The credential lifecycle holds it while it refreshes, so a rotating refresh token is spent once however many
/// readers share it, and while it writes, so nobody writes between another writer's read and write.
public protocol CredentialStoreLock: Sendable {
    /// Releases the lock. Releasing it again does nothing.
    func release()
    /// Confirms that the lock is still this holder's, and will stay so for as long as the store promises a holder
    /// (a lease's full length), before something that must not be done twice: the lifecycle calls it just before a
    /// refresh token goes out. The default does nothing, for locks that cannot pass to another holder while this one
    /// lives.
    ///
    /// - Throws: ``CredentialStoreError/lockLost(key:)`` when the lock has passed to another holder, or the store's
    ///   error when it cannot tell.
    func confirm() async throws
}

extension CredentialStoreLock {
    /// Nothing to confirm: the lock is held until it is released.
    public func confirm() async throws {}
}

/// An exclusive advisory lock on a file (`flock(2)`), held by one open file description in the whole system, so
/// it excludes other processes and other instances in the same process alike.
///
/// The lock file (owner read and write only) exists only while someone holds or waits for the lock: the holder
/// removes it before releasing, and whoever then finds that the file it locked is no longer the one in the directory
/// starts over. So nothing is left behind once the lock is free. The lock is also released when the object goes
/// away or the process ends, so a crash never leaves it held.
///
/// The directory is opened once, when the lock is taken; the file is made, checked and removed relative to that open
/// directory, so a change to the directory's path meanwhile cannot move the lock elsewhere.
public final class FileLock: CredentialStoreLock {
    private let directory: OpenDirectory
    private let name: String
    private let descriptor: LockedValue<Int32?>

    private init(directory: OpenDirectory, name: String, descriptor: Int32) {
        self.directory = directory
        self.name = name
        self.descriptor = LockedValue(descriptor)
    }

    /// Takes the lock on `url`, waiting (without blocking a thread) while someone else holds it, for `timeout`
    /// seconds at most: a holder that hangs (a stopped process still holding the file open) cannot stall every
    /// other user forever.
    ///
    /// The directory of `url` is used as it is; ``LockDirectory`` and ``FileCredentialStore`` check theirs first.
    ///
    /// - Throws: `ConfigurationError.invalidSetting` for a timeout that is NaN or negative
    ///   (`.infinity` waits until the task is cancelled), ``CredentialStoreError/lockTimedOut(key:seconds:)`` after
    ///   `timeout` seconds,
    ///   ``CredentialStoreError/unsafeLocation(path:problem:)`` when something other than a regular file is in
    ///   the lock file's place, ``CredentialStoreError/systemError(key:operation:code:)`` when the file cannot be
    ///   opened or locked, `CancellationError` when the task is cancelled while waiting.
    public static func acquire(at url: URL, timeout: TimeInterval = 30) async throws -> FileLock {
        let parent = url.deletingLastPathComponent().path
        let opened = openat(AT_FDCWD, parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else {
            throw CredentialStoreError.systemError(
                key: url.lastPathComponent, operation: "open the directory of", code: errno)
        }
        let directory = OpenDirectory(descriptor: opened, path: parent)
        return try await acquire(named: url.lastPathComponent, in: directory, timeout: timeout)
    }

    /// Takes the lock on the file `name` in `directory`, as ``acquire(at:timeout:)`` does.
    static func acquire(named name: String, in directory: OpenDirectory, timeout: TimeInterval) async throws
        -> FileLock
    {
        // Past a year is no deadline anyone waits for: the same as none (`.infinity`), and an Int64 of milliseconds.
        let seconds = min(
            try ConfigurationError.checked(timeout, named: "lock timeout", in: 0...(.infinity)), 31_536_000)
        let deadline = ContinuousClock.now + .milliseconds(Int64((seconds * 1_000).rounded()))
        var delay: UInt64 = 500_000
        while true {
            let descriptor = try openLockFile(name, in: directory)
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                guard code == EWOULDBLOCK || code == EINTR else {
                    close(descriptor)
                    throw CredentialStoreError.systemError(key: name, operation: "lock", code: code)
                }
                guard ContinuousClock.now < deadline else {
                    close(descriptor)
                    throw CredentialStoreError.lockTimedOut(key: name, seconds: timeout)
                }
                do {
                    try await Task.sleep(nanoseconds: delay)
                } catch {
                    close(descriptor)
                    throw error
                }
                delay = min(delay * 2, 16_000_000)
            }
            // The previous holder removes the file before releasing it: the lock counts only if this is still the
            // file in the directory.
            if isFile(descriptor, named: name, in: directory) {
                return FileLock(directory: directory, name: name, descriptor: descriptor)
            }
            close(descriptor)
        }
    }

    /// Opens (creating, 0600) the lock file, refusing a link or anything but a regular file in its place; a FIFO
    /// there cannot block the open (`O_NONBLOCK`).
    private static func openLockFile(_ name: String, in directory: OpenDirectory) throws -> Int32 {
        let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        let descriptor = openat(directory.descriptor, name, flags, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw CredentialStoreError.unsafeLocation(path: directory.path(of: name), problem: .symbolicLink)
            }
            throw CredentialStoreError.systemError(key: name, operation: "open the lock file", code: errno)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw CredentialStoreError.unsafeLocation(path: directory.path(of: name), problem: .notARegularFile)
        }
        return descriptor
    }

    private static func isFile(_ descriptor: Int32, named name: String, in directory: OpenDirectory) -> Bool {
        var held = stat()
        var named = stat()
        guard fstat(descriptor, &held) == 0, fstatat(directory.descriptor, name, &named, AT_SYMLINK_NOFOLLOW) == 0
        else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    /// Removes the lock file, then releases the lock and closes the file.
    public func release() {
        guard
            let descriptor = descriptor.withValue({ value -> Int32? in
                defer { value = nil }
                return value
            })
        else { return }
        unlinkat(directory.descriptor, name, 0)
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    deinit { release() }
}

/// A held `AsyncMutex`, for stores whose users all live in this process.
struct MutexLock: CredentialStoreLock {
    let mutex: AsyncMutex
    private let held = LockedValue(true)

    init(_ mutex: AsyncMutex) { self.mutex = mutex }

    func release() {
        if held.withValue({ value -> Bool in
            defer { value = false }
            return value
        }) {
            mutex.unlock()
        }
    }
}
