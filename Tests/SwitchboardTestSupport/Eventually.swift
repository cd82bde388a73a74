/// Waits (polling every millisecond) until `condition` holds or `timeout` passes, in the caller's
/// isolation: a main-actor test may read main-actor state in `condition`.
///
/// The bound is generous: it is reached only when something is wrong, or when the test runner's
/// shared threads are busy with other suites (a resumed task waits behind what is queued there).
/// - Parameters:
///   - timeout: how long to wait at the most.
///   - isolation: the caller's actor, where `condition` runs.
///   - condition: what to wait for.
/// - Returns: whether `condition` held in time.
@discardableResult
public func eventually(
    within timeout: Duration = .seconds(30), isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
) async -> Bool {
    let end = ContinuousClock.now + timeout
    while ContinuousClock.now < end {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
