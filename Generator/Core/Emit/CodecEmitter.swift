/// One wire format's coding of generated types (JSON, XML): the protocols a type declares for it and the members
/// that implement them, in the directions the type's use needs.
protocol CodecEmitter {
    /// Whether the format's protocols are the runtime's `@_spi(Generated)` ones, so a type conforms to them in an
    /// SPI extension rather than in its declaration (and they stay out of the module's public interface).
    var isRuntimeOnly: Bool { get }

    /// The directions `type` is coded in by this format.
    func directions(of type: IRType) -> IRDirections

    /// The protocols `type` conforms to for `directions` (none for types coded through another mechanism).
    func conformances(of type: IRType, directions: IRDirections) -> [String]

    /// Prints the members implementing ``conformances(of:directions:)``: a decoding initializer directly after the
    /// memberwise one (the type's initializers stay together), every other member after a blank line.
    ///
    /// - Parameter delegating: whether a reader must build the value through its memberwise initializer, as
    ///   one declared outside the type's module must.
    func members(of type: IRType, directions: IRDirections, delegating: Bool, into p: inout SwiftPrinter)
}

extension CodecEmitter {
    /// Prints `extension T: <conformances> { <members> }` for `directions`, marked `@_spi(Generated)` when the
    /// format ``isRuntimeOnly``.
    ///
    /// - Parameters:
    ///   - delegating: whether the extension is outside the type's module, so readers go through its memberwise
    ///     initializer.
    ///   - spaced: whether a blank line comes first; a file's support code lists its extensions without one.
    func conformanceExtension(
        of type: IRType, directions: IRDirections, delegating: Bool = true, spaced: Bool = true,
        into p: inout SwiftPrinter
    ) {
        let conformances = conformances(of: type, directions: directions)
        guard !conformances.isEmpty else { return }
        if spaced { p.blank() }
        let spi = isRuntimeOnly ? "@_spi(Generated) " : ""
        p.block("\(spi)extension \(type.qualifiedName): \(conformances.joined(separator: ", "))") { p in
            members(of: type, directions: directions, delegating: delegating, into: &p)
        }
    }
}

extension IRType {
    /// Whether the type is coded by its own members: an object or a union (enums and aliases are coded as the
    /// values they stand for).
    var isCodedAsAValue: Bool {
        switch kind {
        case .object, .union: return true
        case .enumeration, .alias: return false
        }
    }
}
