#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic time in nanoseconds.
@inline(__always)
func nowNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// CPU time of the calling thread in nanoseconds: what an in-process measurement compares
/// with a whole process's user + system time (a busy machine stretches the wall clock, not this).
@inline(__always)
func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// Keeps a value alive so the optimiser cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A sink for checksums: each timed loop adds to it, and it is printed at the end.
nonisolated(unsafe) var checksum = 0

/// The median of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Runs `body` once to warm up, then `repetitions` times; returns the median
/// nanoseconds per item, where one call of `body` handles `items` items.
func medianNanosecondsPerItem(repetitions: Int, items: Int, _ body: () -> Int) -> Double {
    checksum &+= body()
    var samples: [Double] = []
    for _ in 0..<max(1, repetitions) {
        let start = nowNanoseconds()
        let sum = body()
        let elapsed = nowNanoseconds() - start
        checksum &+= sum
        samples.append(Double(elapsed) / Double(max(1, items)))
    }
    return median(samples)
}

/// Interleaves several candidates round by round (A B C, A B C, …) so that a
/// slow moment of a shared machine hits all of them alike; returns
/// each candidate's median nanoseconds per item, on `clock` (the wall clock unless told).
func interleavedMedians(
    repetitions: Int, items: Int, clock: () -> UInt64 = nowNanoseconds, _ candidates: [() -> Int]
) -> [Double] {
    for candidate in candidates { checksum &+= candidate() }
    var samples = Array(repeating: [Double](), count: candidates.count)
    for _ in 0..<max(1, repetitions) {
        for (index, candidate) in candidates.enumerated() {
            let start = clock()
            let sum = candidate()
            let elapsed = clock() - start
            checksum &+= sum
            samples[index].append(Double(elapsed) / Double(max(1, items)))
        }
    }
    return samples.map(median)
}
