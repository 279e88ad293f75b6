/// Generated code names this type to prove, at compile time, that it was generated for this runtime.
///
/// When a breaking change reaches what generated code calls, this type is renamed (`…_2`), so code generated for the
/// old runtime stops compiling with a message pointing here instead of failing in subtle ways. Run `make generate`.
@_spi(Generated) public enum GeneratedCodeRuntimeVersion_2 {}
