import Foundation
import HealthSignInFuzzTargets

// `HealthSignInFuzz`: the libFuzzer entry points. Built by `make fuzz` with `-sanitize=fuzzer,address -parse-as-library`,
// libFuzzer supplies `main`; the target to run is named by the environment:
//
//     SDK_FUZZ_TARGET=xml-reader .build/fuzz/release/HealthSignInFuzz corpus/ -runs=1000000
//
// In an ordinary build this file only declares functions, so the executable does nothing.

/// The target named by `SDK_FUZZ_TARGET`, looked up once.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["SDK_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("HealthSignInFuzz: set SDK_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    _ = selectedTarget
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    selectedTarget.run(data)
    return 0
}
