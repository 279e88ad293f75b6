import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's contents atomically: the bytes go to a temporary file beside it, which is then renamed over it,
/// so a reader (or an interrupted run) sees the old file or the new one, never half of one.
///
/// Generated files are not synced to disk: version control holds the truth, and Foundation's `Data.write`, which
/// syncs twice per file, made writing a thousand files take most of a generator run.
enum FileReplacement {
    /// Writes `bytes` to `path`, replacing any file there.
    ///
    /// - Throws: `CocoaError(.fileWriteUnknown)` naming the path and the system's reason.
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        let temporary = path + ".sdkgen-\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create", temporary) }
        let complete = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
        let closed = close(descriptor) == 0
        guard complete, closed, rename(temporary, path) == 0 else {
            let error = failure("cannot write", path)
            unlink(temporary)
            throw error
        }
    }

    private static func failure(_ action: String, _ path: String) -> CocoaError {
        let reason = String(cString: strerror(errno))
        return CocoaError(
            .fileWriteUnknown,
            userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "\(action) \(path): \(reason)"])
    }
}
