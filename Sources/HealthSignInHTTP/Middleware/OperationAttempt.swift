/// Which try of an operation the request in progress is: 1 for the first, 2 and 3 for the retries a client's
/// `RequestRetryPolicy` allows. Middlewares read it to tell a retry from a new call (a tracing span records it).
public enum OperationAttempt {
    /// The try in progress; 1 outside a retry loop.
    @TaskLocal public static var number = 1
}
