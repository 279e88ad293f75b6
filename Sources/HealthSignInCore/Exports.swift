// The HTTP layer (messages, transports, middlewares and their errors) is part of the runtime's interface: every
// module that imports the runtime sees it, as before it had a module of its own.
@_exported import HealthSignInHTTP
