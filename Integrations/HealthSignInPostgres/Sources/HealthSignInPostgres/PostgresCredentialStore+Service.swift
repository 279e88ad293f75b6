import ServiceLifecycle

extension PostgresCredentialStore: Service {
    /// Waits for the service group's graceful shutdown (or the task's cancellation), then closes the store: it stops
    /// listening for changes and closes its own idle connections. Calls made after it open what they need again.
    public func run() async throws {
        try? await gracefulShutdown()
        close()
    }
}
