#ifndef VPLAY_FUZZ_DRIVER_H
#define VPLAY_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's loop (command line options, corpus folders, crash artifacts) on `callback`, one input at a time.
/// A program that has its own `main` — every SwiftPM executable does — calls this instead of linking libFuzzer's
/// `main`. Returns the exit status libFuzzer chose.
int vplay_fuzz_run(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size));

#endif
