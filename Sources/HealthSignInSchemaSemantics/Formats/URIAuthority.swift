/// RFC 3986 §3.2's `authority = [ userinfo "@" ] host [ ":" port ]`.
enum URIAuthority {
    /// Whether `bytes` (what follows `//` up to the path) is an `authority`.
    static func isAuthority(_ bytes: ArraySlice<UInt8>) -> Bool {
        var hostAndPort = bytes
        // Neither a host nor a port may hold "@", so the first one ends the userinfo.
        if let at = bytes.firstIndex(of: UInt8(ascii: "@")) {
            guard URICharacters.isRun(bytes[..<at], of: URICharacters.userInfo) else { return false }
            hostAndPort = bytes[(at + 1)...]
        }
        let port: ArraySlice<UInt8>
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")),
                URIHost.isIPLiteral(hostAndPort[(hostAndPort.startIndex + 1)..<close])
            else { return false }
            let rest = hostAndPort[(close + 1)...]
            guard rest.isEmpty || rest.first == UInt8(ascii: ":") else { return false }
            port = rest.dropFirst()
        } else {
            // An IPv4address is also a reg-name, and neither holds ":", so the first one starts the port.
            let colon = hostAndPort.firstIndex(of: UInt8(ascii: ":")) ?? hostAndPort.endIndex
            guard URICharacters.isRun(hostAndPort[..<colon], of: URICharacters.registeredName) else { return false }
            port = hostAndPort[colon...].dropFirst()
        }
        return port.allSatisfy { ASCII.digitValue($0) != nil }
    }
}

/// The hosts of RFC 3986 §3.2.2 that need more than a character class: IP literals and IPv4 addresses.
enum URIHost {
    /// Whether `bytes` (between `[` and `]`) is an `IPv6address` or an `IPvFuture`.
    static func isIPLiteral(_ bytes: ArraySlice<UInt8>) -> Bool {
        if let first = bytes.first, first | 0x20 == UInt8(ascii: "v") {
            return isIPvFuture(bytes.dropFirst())
        }
        return isIPv6(bytes)
    }

    /// Whether `bytes` is an `IPv4address`: four decimal octets 0–255 without leading zeros, separated by dots.
    static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let octets = bytes.split(separator: UInt8(ascii: "."), maxSplits: 4, omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        return octets.allSatisfy(isDecimalOctet)
    }

    /// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`, given what follows the `v`.
    private static func isIPvFuture(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return false }
        let version = bytes[..<dot]
        let tail = bytes[(dot + 1)...]
        return !version.isEmpty && version.allSatisfy { ASCII.hexValue($0) != nil }
            && !tail.isEmpty && tail.allSatisfy { URICharacters.userInfo.contains($0) }
    }

    /// Whether `bytes` is an `IPv6address`: eight 16-bit pieces (the last two may be an IPv4 address), or fewer
    /// with one `::` standing for at least one zero piece.
    private static func isIPv6(_ bytes: ArraySlice<UInt8>) -> Bool {
        var elision: Int?
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: ":") {
                elision = index
                break
            }
            index += 1
        }
        guard let elision else { return pieceCount(bytes, endsWithIPv4Allowed: true) == 8 }
        // A second "::" leaves an empty piece on the right, which pieceCount refuses.
        guard let before = pieceCount(bytes[..<elision], endsWithIPv4Allowed: false),
            let after = pieceCount(bytes[(elision + 2)...], endsWithIPv4Allowed: true)
        else { return false }
        return before + after <= 7
    }

    /// How many 16-bit pieces `bytes` spells as `h16` separated by `:` (an IPv4 address at the end counting as
    /// two), or nil when it is not such a list; an empty list has none.
    private static func pieceCount(_ bytes: ArraySlice<UInt8>, endsWithIPv4Allowed: Bool) -> Int? {
        guard !bytes.isEmpty else { return 0 }
        let pieces = bytes.split(separator: UInt8(ascii: ":"), maxSplits: 9, omittingEmptySubsequences: false)
        guard pieces.count <= 8 else { return nil }
        var count = 0
        for (position, piece) in pieces.enumerated() {
            if position == pieces.count - 1 && endsWithIPv4Allowed && piece.contains(UInt8(ascii: ".")) {
                guard isIPv4(piece) else { return nil }
                count += 2
            } else {
                guard (1...4).contains(piece.count), piece.allSatisfy({ ASCII.hexValue($0) != nil }) else {
                    return nil
                }
                count += 1
            }
        }
        return count
    }

    /// `dec-octet`: 0–255 written without leading zeros.
    private static func isDecimalOctet(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard (1...3).contains(bytes.count), bytes.allSatisfy({ ASCII.digitValue($0) != nil }) else { return false }
        if bytes.count > 1 && bytes.first == UInt8(ascii: "0") { return false }
        let value = bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return value <= 255
    }
}
