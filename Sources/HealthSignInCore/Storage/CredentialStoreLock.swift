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
}

/// An exclusive advisory lock on a file (`flock(2)`), held by one open file description in the whole system, so
/// it excludes other processes and other instances in the same process alike.
///
/// The lock file (owner read and write only) exists only while someone holds or waits for the lock: the holder
/// removes it before releasing, and whoever then finds that the file it locked is no longer the one at the path
/// starts over. So nothing is left behind once the lock is free. The lock is also released when the object goes
/// away or the process ends, so a crash never leaves it held.
public final class FileLock: CredentialStoreLock {
    private let path: String
    private let descriptor: LockedValue<Int32?>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = LockedValue(descriptor)
    }

    /// Takes the lock on `url`, waiting (without blocking a thread) while someone else holds it, for `timeout`
    /// seconds at most: a holder that hangs (a stopped process still holding the file open) cannot stall every
    /// other user forever.
    ///
    /// - Throws: ``CredentialStoreError/lockTimedOut(key:seconds:)`` after `timeout` seconds,
    ///   ``CredentialStoreError/systemError(key:operation:code:)`` when the file cannot be opened or locked,
    ///   `CancellationError` when the task is cancelled while waiting.
    public static func acquire(at url: URL, timeout: TimeInterval = 30) async throws -> FileLock {
        let path = url.path
        let deadline = ContinuousClock.now + .milliseconds(Int64((max(timeout, 0) * 1_000).rounded()))
        var delay: UInt64 = 500_000
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw failure("open the lock file", url) }
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                guard code == EWOULDBLOCK || code == EINTR else {
                    close(descriptor)
                    throw CredentialStoreError.systemError(key: url.lastPathComponent, operation: "lock", code: code)
                }
                guard ContinuousClock.now < deadline else {
                    close(descriptor)
                    throw CredentialStoreError.lockTimedOut(key: url.lastPathComponent, seconds: timeout)
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
            // file at the path.
            if isFile(descriptor, at: path) { return FileLock(path: path, descriptor: descriptor) }
            close(descriptor)
        }
    }

    private static func isFile(_ descriptor: Int32, at path: String) -> Bool {
        var held = stat()
        var named = stat()
        guard fstat(descriptor, &held) == 0, lstat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    private static func failure(_ operation: String, _ url: URL) -> CredentialStoreError {
        CredentialStoreError.systemError(key: url.lastPathComponent, operation: operation, code: errno)
    }

    /// Removes the lock file, then releases the lock and closes the file.
    public func release() {
        guard
            let descriptor = descriptor.withValue({ value -> Int32? in
                defer { value = nil }
                return value
            })
        else { return }
        unlink(path)
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
