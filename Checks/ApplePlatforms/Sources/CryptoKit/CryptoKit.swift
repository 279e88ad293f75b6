// swift-crypto implements CryptoKit's API on Linux; under CryptoKit's name, the runtime's CryptoKit code compiles here
// exactly as written for Apple platforms.
@_exported import Crypto
