/// Keeps a property's value out of line, so that a generated type can hold itself through an optional property.
///
/// A Swift struct cannot contain itself, even inside an optional: FHIR's `Identifier` holds a `Reference` (its
/// assigner), which holds an `Identifier`. sdkgen marks one optional property of each such cycle
/// `@Indirect`; the property reads and writes as before, and its value lives in an immutable box that copies share.
@propertyWrapper
public struct Indirect<Value: Sendable>: Sendable {
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    /// Stores `wrappedValue`.
    public init(wrappedValue: Value) { box = Box(wrappedValue) }

    /// The value; setting it stores a new box, so copies made before keep theirs.
    public var wrappedValue: Value {
        get { box.value }
        set { box = Box(newValue) }
    }
}

extension Indirect: Equatable where Value: Equatable {
    /// Whether the values are equal.
    public static func == (lhs: Indirect, rhs: Indirect) -> Bool { lhs.wrappedValue == rhs.wrappedValue }
}

extension Indirect: Hashable where Value: Hashable {
    /// Hashes the value.
    public func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }
}
