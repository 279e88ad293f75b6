// A family's configuration names its credential store and its lifecycle's events, so importing the family is enough
// to choose a store (and, through the credential layer, to see the runtime).
@_exported import HealthSignInCredentials
// Its configuration and its errors are the OAuth layer's too (registrations, session settings, `OAuthError`,
// `ResourcePathError`), so importing the family is enough to configure it and to catch what it throws.
@_exported import HealthSignInOAuth
