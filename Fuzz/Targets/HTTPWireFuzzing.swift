import Foundation
import HealthSignInCore

/// Reads the input as the bytes of an HTTP/1.1 response off a socket, split into pieces whose size the first byte
/// chooses, with a body limit the second byte chooses; the connection then closes. Whatever the bytes, the reader
/// ends with a response or a typed failure, holding no more than its limits.
enum HTTPWireFuzzing {
    static func run(_ data: Data) {
        let bytes = [UInt8](data)
        let pieceSize = Int(bytes.first ?? 0) % 17 + 1
        let limit = Int(bytes.dropFirst().first ?? 255) * 16
        var parser = HTTP1ResponseParser(bodyLimit: limit, expectsBody: (bytes.first ?? 0) % 7 != 0)
        do {
            for start in stride(from: 0, to: bytes.count, by: pieceSize) where !parser.isComplete {
                try parser.consume(bytes[start..<min(start + pieceSize, bytes.count)])
            }
            try parser.finish()
            if let response = parser.response, response.body.count > limit { fatalError("a body over its limit") }
        } catch {
            return
        }
    }
}
