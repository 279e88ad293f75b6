import HealthSignInCore

/// A deterministic byte stream derived from a seed, for tests only: never use it for real secrets.
///
/// Block `n` of the stream is `SHA-256(seed ‖ n as 8 big-endian bytes)`; each call continues where the last stopped,
/// so two sources with the same seed produce the same sequence on every platform.
public final class SeededRandomSource: RandomSource, @unchecked Sendable {
    // @unchecked: `buffer` and `counter` are only touched while `lock` is held.
    private let lock = Lock()
    private let seed: [UInt8]
    private var buffer: [UInt8] = []
    private var counter: UInt64 = 0

    /// Creates a stream from `seed`.
    public init(seed: String) { self.seed = Array(seed.utf8) }

    /// Returns the next `count` bytes of the stream (none for a count below 1).
    public func bytes(count: Int) -> [UInt8] {
        let count = max(0, count)
        return lock.withLock {
            while buffer.count < count {
                var block = seed
                withUnsafeBytes(of: counter.bigEndian) { block.append(contentsOf: $0) }
                buffer.append(contentsOf: CryptoPrimitives.sha256(block))
                counter += 1
            }
            let result = Array(buffer.prefix(count))
            buffer.removeFirst(count)
            return result
        }
    }
}
