import Dispatch

extension Array {
    /// `map` spread over the machine's cores, keeping the order of the elements.
    ///
    /// For the generator's pure per-file work (parsing a schema file, rendering a method's Swift), whose results do
    /// not depend on each other: the output is identical to `map`, only sooner. `transform` may read shared values
    /// (the IR) but must not change anything outside its own result.
    func parallelMap<Result>(_ transform: (Element) -> Result) -> [Result] {
        guard count > 1 else { return map(transform) }
        return withoutActuallyEscaping(transform) { transform in
            let results = ResultSlots<Result>(count: count)
            let work = ReadOnlyWork(elements: self, transform: transform)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                results.store(work.transform(work.elements[index]), at: index)
            }
            return results.values
        }
    }
}

/// The elements and the transform, shared by the iterations of one `concurrentPerform`.
private struct ReadOnlyWork<Element, Result>: @unchecked Sendable {
    // @unchecked: `concurrentPerform` returns before the caller continues, and nothing is written while it runs:
    // the elements are only read and the transform only builds its own result.
    let elements: [Element]
    let transform: (Element) -> Result
}

/// One slot per element, each written by exactly one iteration of `concurrentPerform`, which returns only after
/// every iteration has finished.
private final class ResultSlots<Value>: @unchecked Sendable {
    // @unchecked: each slot is written once, by one thread, and read only after all writes have completed; the
    // buffer is raw memory so that writes to different slots do not contend for access to one array.
    private let slots: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func store(_ value: Value, at index: Int) { slots[index] = value }

    var values: [Value] { slots.compactMap { $0 } }
}
