extension Router {
    /// The events of a channel as an `AsyncSequence`, for a task that handles them in a loop:
    /// ```swift
    /// .task {
    ///     for await line in router.events(AddCartLine.self) { model.lines.append(line) }
    /// }
    /// ```
    /// While a task iterates it, the sequence is a handler of the channel: the channel counts as
    /// handled (the manifest lists it; features that need it are on) from the moment iteration
    /// starts (`makeAsyncIterator()`, which `for await` calls first) until the iterating task is
    /// cancelled or the loop ends; then the channel goes (unless something else handles it).
    /// Events come in the order of the `receive` calls; each message is ``Outcome/handled(count:)``
    /// once it is in the sequence's buffer. Under a bounded `bufferingPolicy`, an event that does
    /// not fit is discarded and reported as ``Diagnostic/eventsOverflow(_:)``, never silently.
    /// Each iteration is a subscription of its own: two loops over one sequence each get every event.
    /// - Parameters:
    ///   - type: the event type; its ``Event/channel`` is the channel subscribed to.
    ///   - bufferingPolicy: how many events wait for the loop; all of them (`.unbounded`) by default.
    /// - Returns: the sequence of the channel's events.
    public func events<E: Event>(
        _ type: E.Type, bufferingPolicy: AsyncStream<E>.Continuation.BufferingPolicy = .unbounded
    ) -> EventSequence<E> {
        EventSequence(router: self, bufferingPolicy: bufferingPolicy)
    }
}

/// The events of one channel, as ``Router/events(_:bufferingPolicy:)`` returns them: a handler of
/// the channel while a task iterates it.
public struct EventSequence<E: Event>: AsyncSequence, Sendable {
    /// The typed event.
    public typealias Element = E
    /// Iteration never throws: it ends when the iterating task is cancelled.
    public typealias Failure = Never

    let router: Router
    let bufferingPolicy: AsyncStream<E>.Continuation.BufferingPolicy

    /// Subscribes to the channel (from now on it counts as handled) and returns the iterator.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: E.self, bufferingPolicy: bufferingPolicy)
        let diagnostics = router.diagnostics
        let token = router.on(E.self) { event in
            if case .dropped = continuation.yield(event) { diagnostics.emit(.eventsOverflow(E.channel)) }
        }
        // The iterating task was cancelled (or the stream ended): the channel goes at once.
        continuation.onTermination = { _ in token.cancel() }
        return Iterator(base: stream.makeAsyncIterator(), subscription: Subscription(token, router: router))
    }

    /// Iterates the events; releasing it (the loop ended) unsubscribes.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<E>.Iterator
        let subscription: Subscription

        /// The next event; `nil` once the iterating task is cancelled.
        public mutating func next() async -> E? {
            await base.next()
        }

        /// The next event, awaited in the caller's isolation; `nil` once the iterating task is cancelled.
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async -> E? {
            await base.next(isolation: actor)
        }
    }
}

/// A sequence's registration, cancelled when the iterator that owns it goes (the loop ended).
/// It keeps the router alive while the loop runs.
final class Subscription: Sendable {
    private let token: Registration
    private let router: Router

    init(_ token: Registration, router: Router) {
        self.token = token
        self.router = router
    }

    deinit {
        token.cancel()
    }
}
