import CMallocStats

/// Bytes the C allocator holds for the program right now (glibc
/// `mallinfo2`: chunks in use in every arena plus mmapped blocks, headers
/// included), or 0 where that is not available.
///
/// The difference before and after building something that is still alive
/// is what it retains, allocator overhead included; other threads that
/// allocate meanwhile add noise, which is why the benchmarks also report
/// the framework's interposer count (`memoryLeakedBytes`, requested bytes).
public func allocatedBytes() -> Int {
    Int(cmallocstats_bytes_in_use())
}
