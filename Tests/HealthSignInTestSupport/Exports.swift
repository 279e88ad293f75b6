// Every test that uses the shared fixtures also gets the runtime's test doubles.
@_exported import HealthSignInTesting
