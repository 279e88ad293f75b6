/// The key of an array element in a coding path: its position as `intValue`, so paths read `issue[0]/type`.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// The key `super`, under which `superDecoder()` looks, as Foundation's coders name it.
struct JSONSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }

    init() {}
    init?(intValue: Int) { nil }
    init?(stringValue: String) {
        guard stringValue == "super" else { return nil }
    }
}
