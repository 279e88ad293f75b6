// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import HealthSignInCore
import HealthSignInCredentials

// The examples in the doc comments of the `package` concurrency helpers of the runtime and the credential layer,
// which the package's own flows use. An app cannot see them, so the consumer package leaves this file out.

func asyncMutexExample(signIn: @Sendable (String) async throws -> Void, token: String) async throws {
    // snippet doc-async-mutex
    let lifecycle = AsyncMutex()
    try await lifecycle.withLock { try await signIn(token) }
    // end snippet
}

func broadcasterExample() async {
    // snippet doc-broadcaster
    let events = Broadcaster<String>()
    let observer = events.subscribe()      // every value sent from now on
    events.send("signed out")
    for await event in observer { print(event) }
    // end snippet
}

func sharedRunExample(refreshAndStore: @escaping @Sendable () async throws -> String) async throws -> String {
    // snippet doc-shared-run
    let refresh = SharedRun { try await refreshAndStore() }
    let fresh = try await refresh.value()     // from any number of callers
    // end snippet
    return fresh
}
