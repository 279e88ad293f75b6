import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The emulator's control endpoints, through which the demo sets up what a real server's users and administrators
/// would have done before the journey.
enum EmulatorControl {
    /// Posts `body` as JSON to the emulator's `/_control/<path>` and returns its JSON answer.
    ///
    /// - Throws: a ``DemoError`` when the emulator does not answer 200.
    @discardableResult
    static func post(_ emulator: URL, _ path: String, _ body: [String: Any]) async throws -> [String: Any] {
        var request = URLRequest(url: emulator.appendingPathComponent("_control/" + path))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw DemoError("the emulator refused its control request \(path)")
        }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}
