import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory opened once, by descriptor, after it and every directory above it were checked. A file store and a
/// lock directory name every file relative to it (`openat`, `renameat`, `unlinkat`, `fstatat`), so nothing done to
/// the path afterwards (a directory renamed, a symbolic link put in its place) can make them read, write, remove or
/// lock a file anywhere else.
final class OpenDirectory: Sendable {
    /// The descriptor, open for reading (so it can be flushed) and closed with this object.
    let descriptor: Int32
    /// The path it was opened at, for messages; operations never go through it.
    let path: String

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// The path of `name` in this directory, for messages.
    func path(of name: String) -> String { path == "/" ? "/" + name : path + "/" + name }

    deinit { close(descriptor) }
}

/// Opens a directory only this user can change, for credentials and lock files, after checking every directory on
/// its path from `/` down.
///
/// The directory itself must be a real directory (not a symbolic link), owned by this user and not writable by its
/// group or others. Every directory above it must be owned by root or this user and not writable by its group or
/// others unless it has the sticky bit (as `/tmp`, mode 1777, has), since whoever can rename an entry of a directory
/// can replace everything below it. Missing directories are created with mode 0700, each in one `mkdirat(2)` inside
/// its already checked parent, so none is ever open to others: the store needs nobody else to see even the names.
///
/// A symbolic link above the directory is followed only when root or this user owns it: it sits in a directory
/// already checked, where an entry can be made or replaced only by root, this user or (in a sticky directory) the
/// entry's owner, so nobody else can have made it or can change it. That keeps the symbolic links of a system, such
/// as `/var` on macOS (to `/private/var`), usable; a link another user owns is refused as
/// ``CredentialStoreError/LocationProblem/symbolicLink``, and then the real path must be given.
///
/// Each component is opened with `openat(2)` and `O_NOFOLLOW` relative to its checked parent and checked with
/// `fstat(2)` on what was opened, so there is no moment between a check and a use in which a path could be changed.
enum PrivateDirectory {
    /// Links followed at most, as Linux's path lookup allows, so a loop of links ends.
    private static let maximumLinks = 40

    #if os(Linux)
        /// Directories above the store's are only searched and inspected: `O_PATH` needs no read permission, so an
        /// execute-only parent (mode 0711) can be walked. The C library declares it only for `_GNU_SOURCE`; this is
        /// its value in `asm-generic/fcntl.h`, which every architecture Swift runs on uses.
        private static let ancestorFlags = 0o1000_0000 | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    #else
        private static let ancestorFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    #endif

    /// One opened directory of the walk, with what `fstat(2)` said about it.
    private struct Level {
        let directory: OpenDirectory
        let info: stat
    }

    /// Opens `directory` for good, creating it and its missing parents (0700), after checking it and every
    /// directory above it.
    ///
    /// - Throws: ``CredentialStoreError/unsafeLocation(path:problem:)`` naming the first directory or link that is
    ///   not safe (nothing is created under it); ``CredentialStoreError/systemError(key:operation:code:)`` when a
    ///   directory cannot be created, opened or inspected.
    static func open(_ directory: URL) throws -> OpenDirectory {
        var remaining = components(directory.standardizedFileURL.path)[...]
        var levels = [try root()]
        var links = 0
        while let name = remaining.popFirst() {
            guard let parent = levels.last else { break }
            if name == "." { continue }
            if name == ".." {
                if levels.count > 1 { levels.removeLast() }
                continue
            }
            let path = parent.directory.path(of: name)
            if let problem = ancestorProblem(parent.info) {
                throw CredentialStoreError.unsafeLocation(path: parent.directory.path, problem: problem)
            }
            var info = stat()
            if fstatat(parent.directory.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                guard errno == ENOENT else { throw failure(path, "inspect the directory") }
                if mkdirat(parent.directory.descriptor, name, 0o700) != 0, errno != EEXIST {
                    throw failure(path, "create the directory")
                }
            } else if info.st_mode & S_IFMT == S_IFLNK {
                guard !remaining.isEmpty, info.st_uid == 0 || info.st_uid == geteuid() else {
                    throw CredentialStoreError.unsafeLocation(path: path, problem: .symbolicLink)
                }
                links += 1
                guard links <= maximumLinks else {
                    throw CredentialStoreError.systemError(key: path, operation: "follow the links of", code: ELOOP)
                }
                let target = try readLink(name, in: parent.directory)
                // An absolute target starts again from the root; a relative one goes on from the link's directory.
                if target.hasPrefix("/") { levels.removeSubrange(1...) }
                remaining = (components(target) + remaining)[...]
                continue
            }
            levels.append(try openChild(name, of: parent.directory))
        }
        guard let last = levels.last else { throw failure("/", "open the directory") }
        return try reopenChecked(last)
    }

    /// `/`, which is never a symbolic link.
    private static func root() throws -> Level {
        let descriptor = openat(AT_FDCWD, "/", ancestorFlags)
        guard descriptor >= 0 else { throw failure("/", "open the directory") }
        return try level(OpenDirectory(descriptor: descriptor, path: "/"))
    }

    /// Opens the directory `name` of `parent` without following a link, and inspects what was opened.
    private static func openChild(_ name: String, of parent: OpenDirectory) throws -> Level {
        let path = parent.path(of: name)
        let descriptor = openat(parent.descriptor, name, ancestorFlags)
        guard descriptor >= 0 else {
            switch errno {
            // Something else was put there after it was inspected.
            case ELOOP: throw CredentialStoreError.unsafeLocation(path: path, problem: .symbolicLink)
            case ENOTDIR: throw CredentialStoreError.unsafeLocation(path: path, problem: .notADirectory)
            default: throw failure(path, "open the directory")
            }
        }
        let opened = try level(OpenDirectory(descriptor: descriptor, path: path))
        guard opened.info.st_mode & S_IFMT == S_IFDIR else {
            throw CredentialStoreError.unsafeLocation(path: path, problem: .notADirectory)
        }
        return opened
    }

    private static func level(_ directory: OpenDirectory) throws -> Level {
        var info = stat()
        guard fstat(directory.descriptor, &info) == 0 else { throw failure(directory.path, "inspect the directory") }
        return Level(directory: directory, info: info)
    }

    /// Opens the walk's last directory for reading (its descriptor may be only for searching), makes sure it is the
    /// same directory, and checks it as the store's own.
    private static func reopenChecked(_ last: Level) throws -> OpenDirectory {
        let path = last.directory.path
        let descriptor = openat(last.directory.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "open the directory") }
        let directory = OpenDirectory(descriptor: descriptor, path: path)
        let opened = try level(directory)
        guard opened.info.st_dev == last.info.st_dev, opened.info.st_ino == last.info.st_ino else {
            throw failure(path, "open the directory")
        }
        if let problem = ownProblem(opened.info) {
            throw CredentialStoreError.unsafeLocation(path: path, problem: problem)
        }
        return directory
    }

    /// Why a directory above the store's could let someone else redirect it, or nil.
    private static func ancestorProblem(_ info: stat) -> CredentialStoreError.LocationProblem? {
        if info.st_uid != 0, info.st_uid != geteuid() { return .ownedByAnotherUser(uid: UInt32(info.st_uid)) }
        if info.st_mode & 0o022 != 0, info.st_mode & 0o1000 == 0 {
            return .writableByOthers(mode: UInt16(info.st_mode & 0o7777))
        }
        return nil
    }

    /// Why the store's own directory is not private to this user, or nil.
    private static func ownProblem(_ info: stat) -> CredentialStoreError.LocationProblem? {
        if info.st_mode & S_IFMT != S_IFDIR { return .notADirectory }
        if info.st_uid != geteuid() { return .ownedByAnotherUser(uid: UInt32(info.st_uid)) }
        if info.st_mode & 0o022 != 0 { return .writableByOthers(mode: UInt16(info.st_mode & 0o7777)) }
        return nil
    }

    /// The target of the link `name` in `directory`.
    private static func readLink(_ name: String, in directory: OpenDirectory) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(directory.descriptor, name, &buffer, buffer.count - 1)
        guard count >= 0 else { throw failure(directory.path(of: name), "read the link") }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func failure(_ path: String, _ operation: String) -> CredentialStoreError {
        CredentialStoreError.systemError(key: path, operation: operation, code: errno)
    }
}
