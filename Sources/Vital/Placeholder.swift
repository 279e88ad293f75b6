import SDKRuntime
