#include "CMallocStats.h"

#if defined(__linux__)
#include <malloc.h> // defines __GLIBC__ on glibc
#endif

#if defined(__GLIBC__)
size_t cmallocstats_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
size_t cmallocstats_bytes_in_use(void) {
    return 0;
}
#endif
