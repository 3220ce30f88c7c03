#ifndef CMALLOCSTATS_H
#define CMALLOCSTATS_H

#include <stddef.h>

/// Bytes the C allocator holds for the program right now: chunks in use in
/// every arena plus mmapped blocks (glibc `mallinfo2`), headers included.
/// 0 where glibc's `mallinfo2` is not available.
size_t cmallocstats_bytes_in_use(void);

#endif
