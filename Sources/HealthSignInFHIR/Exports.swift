// The models' members are the runtime's types (`JSONValue`, `JSONNumber`, `OpenEnum`), and the client's
// configuration, transports and errors are the runtime's, so importing the family is enough to use it.
@_exported import HealthSignInCore
