// The entry point of HealthSignInFuzz when it is built for fuzzing (see driver.c). Nothing here is called from Swift.
#ifndef SDK_FUZZ_DRIVER_H
#define SDK_FUZZ_DRIVER_H
#endif
