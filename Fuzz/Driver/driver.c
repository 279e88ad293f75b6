// SwiftPM names an executable's entry point `<module>_main`; built with -parse-as-library for libFuzzer, the Swift
// module defines none, so this one hands the process to libFuzzer's driver. Compiled only for fuzzing
// (-DSDK_FUZZING); in ordinary builds the Swift module provides the entry point.
#include "HealthSignInFuzzDriver.h"

#ifdef SDK_FUZZING
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int HealthSignInFuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
#endif
