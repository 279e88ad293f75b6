import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// An HTTPS server on 127.0.0.1 that answers every request `200 ok` with a length and keeps the connection: the same
/// peer for both transports, fast enough that the clients' own costs show. One event loop, so a core stays for the
/// client.
final class TLSServer: Sendable {
    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    init(certificate: URL, key: URL) throws {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.path).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key.path, format: .pem)))
        let context = try NIOSSLContext(configuration: configuration)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 512)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(OKHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        guard let port = channel.localAddress?.port else { throw BenchError("the server has no port") }
        self.port = port
    }

    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// Answers each request, once it has been read whole, with `200 ok`.
private final class OKHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        let head = HTTPResponseHead(
            version: .http1_1, status: .ok, headers: ["Content-Length": "2", "Content-Type": "text/plain"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "ok")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// A test authority and a certificate it signed for 127.0.0.1, made with the `openssl` command.
struct Certificates {
    let directory: URL
    var authority: URL { directory.appendingPathComponent("ca.pem") }
    var certificate: URL { directory.appendingPathComponent("leaf.pem") }
    var key: URL { directory.appendingPathComponent("leaf.key") }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("HealthSignInTransportBench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Transport Bench CA", "-addext",
                "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
            ])
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: directory.appendingPathComponent("leaf.ext"))
        try openssl(["req"] + ec + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=127.0.0.1"])
        try openssl([
            "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
            "leaf.pem", "-days", "2", "-extfile", "leaf.ext",
        ])
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("openssl \(arguments[0]) failed") }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
