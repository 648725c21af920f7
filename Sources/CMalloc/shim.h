#ifndef C_MALLOC_SHIM_H
#define C_MALLOC_SHIM_H

// glibc's mallopt() and its parameters, for `responder run`'s heap thresholds (ResponderCommands/WorkerHeap.swift):
// Glibc's module map omits malloc.h.
#include <malloc.h>

#endif
