// A family's configuration names its credential store and its lifecycle's events, so importing the family is enough
// to choose a store (and, through the credential layer, to see the runtime).
@_exported import HealthSignInCredentials
