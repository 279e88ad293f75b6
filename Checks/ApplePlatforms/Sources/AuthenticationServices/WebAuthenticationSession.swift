// The web authentication session declarations WebAuthenticationBrowser uses, as Apple publishes them in Swift (module
// AuthenticationServices), so that it type-checks on Linux. Nothing here runs. Each symbol names its page under
// https://developer.apple.com/documentation/.
//
// ASPresentationAnchor is UIWindow on iOS and visionOS and NSWindow on macOS, both NSObject subclasses, which UIKit
// and AppKit would bring; here it is NSObject itself.

import Foundation

/// authenticationservices/aspresentationanchor
public typealias ASPresentationAnchor = NSObject

/// authenticationservices/aswebauthenticationsession
open class ASWebAuthenticationSession: NSObject {
    /// authenticationservices/aswebauthenticationsession/completionhandler
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// authenticationservices/aswebauthenticationsession/init(url:callbackurlscheme:completionhandler:)
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}

    /// authenticationservices/aswebauthenticationsession/presentationcontextprovider
    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?

    /// authenticationservices/aswebauthenticationsession/prefersephemeralwebbrowsersession
    open var prefersEphemeralWebBrowserSession: Bool = false

    /// authenticationservices/aswebauthenticationsession/start()
    open func start() -> Bool { fatalError("declaration only") }

    /// authenticationservices/aswebauthenticationsession/cancel()
    open func cancel() {}
}

/// authenticationservices/aswebauthenticationpresentationcontextproviding
@MainActor
public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    /// authenticationservices/aswebauthenticationpresentationcontextproviding/presentationanchor(for:)
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// authenticationservices/aswebauthenticationsessionerror
public struct ASWebAuthenticationSessionError: Error, Hashable {
    /// authenticationservices/aswebauthenticationsessionerror/code
    public enum Code: Int, Sendable {
        /// authenticationservices/aswebauthenticationsessionerror/code/canceledlogin
        case canceledLogin = 1
        /// authenticationservices/aswebauthenticationsessionerror/code/presentationcontextnotprovided
        case presentationContextNotProvided = 2
        /// authenticationservices/aswebauthenticationsessionerror/code/presentationcontextinvalid
        case presentationContextInvalid = 3
    }

    /// The error's code.
    public var code: Code

    public init(_ code: Code) { self.code = code }
}
