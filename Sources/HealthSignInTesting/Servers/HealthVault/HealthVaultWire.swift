import Foundation
import HealthSignInCore

/// The SODA wire as the HealthVault test server reads and writes it: status codes, the exact bytes of a request's
/// regions, and the response envelope.
enum HealthVaultWire {
    static let requestNamespace = "urn:com.microsoft.wc.request"
    static let responseNamespace = "urn:com.microsoft.wc.methods.response."

    /// The status codes the server answers with (the platform's numbers).
    enum Status: Int {
        case ok = 0
        case failed = 1
        case invalidXML = 3
        case badSignature = 4
        case badMethod = 5
        case invalidApplication = 6
        case invalidToken = 8
        case invalidPerson = 9
        case invalidRecord = 10
        case accessDenied = 11
        case invalidThing = 13
        case missingFormat = 16
        case requestTimedOut = 49
        case authorizationDoesNotExist = 58
        case versionStampMismatch = 61
        case sessionExpired = 65
    }

    /// A refusal: a status with its message (HTTP 200, as the platform answers every error).
    struct Failure: Error {
        let status: Status
        let message: String

        init(_ status: Status, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    /// The exact bytes of `<name>…</name>` (or `<name />`) in `body`, as received, or nil.
    static func region(_ body: [UInt8], _ name: String) -> [UInt8]? {
        let empty = Array("<\(name) />".utf8)
        let start = find(Array("<\(name)>".utf8), in: body, from: 0)
        if let emptyAt = find(empty, in: body, from: 0), start.map({ emptyAt < $0 }) ?? true { return empty }
        guard let start, let end = find(Array("</\(name)>".utf8), in: body, from: start) else { return nil }
        return Array(body[start..<end + name.utf8.count + 3])
    }

    /// The exact bytes between `<data-xml>` and its `</data-xml>`, for every data-xml element of `info`, in order.
    static func dataXMLRegions(_ info: [UInt8]) throws(Failure) -> [[UInt8]] {
        let opening = Array("<data-xml".utf8)
        let closing = Array("</data-xml>".utf8)
        var regions: [[UInt8]] = []
        var position = 0
        while let start = find(opening, in: info, from: position) {
            guard let close = find([UInt8(ascii: ">")], in: info, from: start) else { break }
            if info[close - 1] == UInt8(ascii: "/") {
                regions.append([])
                position = close + 1
                continue
            }
            var depth = 1
            var cursor = close + 1
            while depth > 0 {
                guard let end = find(closing, in: info, from: cursor) else {
                    throw Failure(.invalidXML, "data-xml is not closed")
                }
                if let nested = find(opening, in: info, from: cursor), nested < end {
                    depth += 1
                    cursor = nested + opening.count
                } else {
                    depth -= 1
                    cursor = end + closing.count
                }
            }
            regions.append(Array(info[(close + 1)..<(cursor - closing.count)]))
            position = cursor
        }
        return regions
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else {
            return nil
        }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The response envelope: the status, the error's message, and `<wc:info>` in the method's namespace.
    static func respond(
        _ status: Status = .ok, info: String? = nil, method: String = "", version: Int = 1,
        message: String? = nil
    ) -> HTTPResponseMessage {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><response><status><code>\(status.rawValue)</code>"
        if status != .ok {
            xml +=
                "<error><message>" + XMLText.escaped(message ?? "") + "</message><context>"
                + "<server-name>test-server</server-name><server-ip>127.0.0.1</server-ip></context></error>"
        }
        xml += "</status>"
        if let info {
            let namespace = responseNamespace + method + (version > 1 ? String(version) : "")
            xml += "<wc:info xmlns:wc=\"\(namespace)\">" + info + "</wc:info>"
        }
        return .text(200, xml + "</response>", type: "text/xml; charset=utf-8")
    }

    /// The element at `path` (child names separated by `/`) below `element`.
    static func find(_ element: XMLElementView, _ path: String) -> XMLElementView? {
        var current: XMLElementView? = element
        for name in path.split(separator: "/") { current = current?.child(String(name)) }
        return current
    }

    /// The text of the element at `path`, or nil when there is none.
    static func text(_ element: XMLElementView, _ path: String) -> String? {
        find(element, path).map(\.text)
    }

    /// The children of `element` called `name`.
    static func all(_ element: XMLElementView, _ name: String) -> [XMLElementView] {
        element.children.filter { $0.isNamed(name) }
    }

    /// `value` as an integer, or INVALID_XML naming it.
    static func integer(_ value: String?, _ name: String) throws(Failure) -> Int {
        guard let value, let number = Int(value.trimmingCharacters(in: .whitespaces)) else {
            throw Failure(.invalidXML, "\(name) is not an integer")
        }
        return number
    }

    /// An `xsd:dateTime`, or INVALID_XML.
    static func time(_ text: String?) throws(Failure) -> Date {
        let value = (text ?? "").trimmingCharacters(in: .whitespaces)
        guard let date = DateTimeText.parse(value) else { throw Failure(.invalidXML, "not an xsd:dateTime: \(value)") }
        return date
    }

    /// `2017-08-10T12:34:56`, as the server dates the things it stores.
    static func thingDate(_ date: Date) -> String { String(DateTimeText.format(date).prefix(19)) }
}
