// The Security framework's declarations the runtime uses (KeychainCredentialStore, JOSE's RSA keys), as Apple
// publishes them in Swift, so that the runtime's Apple branches type-check on Linux. Nothing here runs: every body
// stops. Each symbol names its page under https://developer.apple.com/documentation/.
//
// The Core Foundation types are classes on Apple platforms, toll-free bridged to Swift types; Linux has no such
// bridging, so each is declared here as the Swift type it bridges to, which admits exactly the `as` casts bridging
// admits (`CFString as String`, `[String: Any] as CFDictionary`, `Data as CFData`, `CFData as Data`).

import Foundation

/// corefoundation/cftypestring: bridged to `String`.
public typealias CFString = String
/// corefoundation/cfdictionary: bridged to `[AnyHashable: Any]` (NSDictionary).
public typealias CFDictionary = [AnyHashable: Any]
/// corefoundation/cfdata: bridged to `Data`.
public typealias CFData = Data
/// corefoundation/cftyperef: `typealias CFTypeRef = AnyObject`.
public typealias CFTypeRef = AnyObject
/// corefoundation/cferror: `class CFError`.
public final class CFError {}
/// kernel/osstatus (MacTypes): `typealias OSStatus = Int32`.
public typealias OSStatus = Int32

/// security/seckey: `class SecKey`.
public final class SecKey {}

/// security/seckeyalgorithm: `struct SecKeyAlgorithm: Hashable, RawRepresentable` over `CFString`.
public struct SecKeyAlgorithm: Hashable, RawRepresentable, Sendable {
    public let rawValue: CFString
    public init(rawValue: CFString) { self.rawValue = rawValue }
    /// security/seckeyalgorithm/rsasignaturemessagepkcs1v15sha256
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PKCS1v15:SHA256")
    /// security/seckeyalgorithm/rsasignaturemessagepkcs1v15sha384
    public static let rsaSignatureMessagePKCS1v15SHA384 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PKCS1v15:SHA384")
    /// security/seckeyalgorithm/rsasignaturemessagepkcs1v15sha512
    public static let rsaSignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PKCS1v15:SHA512")
}

/// security/errsecsuccess
public var errSecSuccess: OSStatus { 0 }
/// security/errsecitemnotfound
public var errSecItemNotFound: OSStatus { -25300 }
/// security/errsecinteractionnotallowed
public var errSecInteractionNotAllowed: OSStatus { -25308 }

/// security/ksecclass
public let kSecClass: CFString = "kSecClass"
/// security/ksecclassgenericpassword
public let kSecClassGenericPassword: CFString = "kSecClassGenericPassword"
/// security/ksecattrservice
public let kSecAttrService: CFString = "kSecAttrService"
/// security/ksecattraccount
public let kSecAttrAccount: CFString = "kSecAttrAccount"
/// security/ksecattrsynchronizable
public let kSecAttrSynchronizable: CFString = "kSecAttrSynchronizable"
/// security/ksecattraccessgroup
public let kSecAttrAccessGroup: CFString = "kSecAttrAccessGroup"
/// security/ksecusedataprotectionkeychain
public let kSecUseDataProtectionKeychain: CFString = "kSecUseDataProtectionKeychain"
/// security/ksecreturndata
public let kSecReturnData: CFString = "kSecReturnData"
/// security/ksecmatchlimit
public let kSecMatchLimit: CFString = "kSecMatchLimit"
/// security/ksecmatchlimitone
public let kSecMatchLimitOne: CFString = "kSecMatchLimitOne"
/// security/ksecvaluedata
public let kSecValueData: CFString = "kSecValueData"
/// security/ksecattraccessible
public let kSecAttrAccessible: CFString = "kSecAttrAccessible"
/// security/ksecattraccessibleafterfirstunlockthisdeviceonly
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
/// security/ksecattrkeytype
public let kSecAttrKeyType: CFString = "kSecAttrKeyType"
/// security/ksecattrkeytypersa
public let kSecAttrKeyTypeRSA: CFString = "kSecAttrKeyTypeRSA"
/// security/ksecattrkeyclass
public let kSecAttrKeyClass: CFString = "kSecAttrKeyClass"
/// security/ksecattrkeyclasspublic
public let kSecAttrKeyClassPublic: CFString = "kSecAttrKeyClassPublic"
/// security/ksecattrkeyclassprivate
public let kSecAttrKeyClassPrivate: CFString = "kSecAttrKeyClassPrivate"

/// security/secitemcopymatching(_:_:)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("declaration only")
}

/// security/secitemadd(_:_:)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("declaration only")
}

/// security/secitemupdate(_:_:)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    fatalError("declaration only")
}

/// security/secitemdelete(_:)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    fatalError("declaration only")
}

/// security/seckeycreatewithdata(_:_:_:)
public func SecKeyCreateWithData(
    _ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    fatalError("declaration only")
}

/// security/seckeycreatesignature(_:_:_:_:)
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    fatalError("declaration only")
}

/// security/seckeyverifysignature(_:_:_:_:_:)
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    fatalError("declaration only")
}

// The server trust evaluation of DefaultHTTPTransport's extra certificate authorities.

/// corefoundation/cfarray: bridged to `[Any]` (NSArray).
public typealias CFArray = [Any]
/// corefoundation/cfallocator: `class CFAllocator`.
public final class CFAllocator {}
/// security/sectrust: `class SecTrust`.
public final class SecTrust {}
/// security/seccertificate: `class SecCertificate`.
public final class SecCertificate {}

/// security/1396098-seccertificatecreatewithdata
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    fatalError("declaration only")
}

/// security/1396098-sectrustsetanchorcertificates
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus {
    fatalError("declaration only")
}

/// security/1399071-sectrustsetanchorcertificatesonly
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    fatalError("declaration only")
}

/// security/2980705-sectrustevaluatewitherror
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    fatalError("declaration only")
}

#if canImport(FoundationNetworking)
    import FoundationNetworking

    extension URLProtectionSpace {
        /// foundation/urlprotectionspace/1409926-servertrust
        public var serverTrust: SecTrust? { fatalError("declaration only") }
    }

    extension URLCredential {
        /// foundation/urlcredential/1418143-init
        public convenience init(trust: SecTrust) { fatalError("declaration only") }
    }
#endif
