// Stores and the lifecycle speak the runtime's types (values, errors, logging, time), so a module that imports the
// credential layer sees the runtime too.
@_exported import HealthSignInCore
