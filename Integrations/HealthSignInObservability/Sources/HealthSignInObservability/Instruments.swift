import Dispatch
import Metrics

/// Records to a metrics factory, or to the one bootstrapped in `MetricsSystem` when none is given.
struct Instruments: Sendable {
    let factory: (any MetricsFactory)?

    /// Adds one to the counter `label` with `dimensions`.
    func count(_ label: String, _ dimensions: [(String, String)]) {
        if let factory {
            Counter(label: label, dimensions: dimensions, factory: factory).increment()
        } else {
            Counter(label: label, dimensions: dimensions).increment()
        }
    }

    /// Records the time since `started` (`DispatchTime`'s nanoseconds) in the timer `label` with `dimensions`.
    func time(_ label: String, _ dimensions: [(String, String)], since started: UInt64) {
        let elapsed = Int64(clamping: DispatchTime.now().uptimeNanoseconds &- started)
        if let factory {
            Timer(label: label, dimensions: dimensions, factory: factory).recordNanoseconds(elapsed)
        } else {
            Timer(label: label, dimensions: dimensions).recordNanoseconds(elapsed)
        }
    }
}
