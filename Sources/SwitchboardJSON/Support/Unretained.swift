/// The package's only use of `Unmanaged`: a class reference handled without the
/// reference counting Swift would do, in three narrow ways, each with why the
/// object is alive for as long as it is used. Nothing here hands out a reference
/// that outlives the call it is made for, and no value a user type can keep (a
/// decoder, a container, a `MiddlewareNext`) holds one.
package struct Unretained<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    /// Refers to `object` without retaining it, for one call through ``call(_:)``
    /// straight after: a hot path calling what an immutable list keeps (a route's
    /// handlers, a middleware chain's entries).
    ///
    /// Lifetime: used only as `Unretained(list[i]).call { … }` where `list` is a `let`
    /// array of an object the calling function holds for the whole call (its parameter,
    /// or a `let` of an object it holds). That array is never changed, so it keeps
    /// `list[i]` alive for as long as the caller runs, and so while `body` runs.
    /// `body` gets an ordinary strong reference: keeping it retains it as usual.
    @_transparent
    package init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// Calls `body` with the object, not retained again for the call.
    @_transparent
    package func call<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// One strong reference to `object` as an opaque pointer, for a C slot that stores
    /// pointers (a pthread key). The pointer owns the reference: exactly one of
    /// ``take(_:)`` and ``release(_:)`` consumes it, once.
    package static func retainedPointer(_ object: Object) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(object).toOpaque()
    }

    /// The object a ``retainedPointer(_:)`` pointer owns, taking over its reference.
    /// Lifetime: the pointer's reference keeps the object alive until this call, the
    /// returned strong reference from then on; the caller must not use the pointer again.
    package static func take(_ pointer: UnsafeMutableRawPointer) -> Object {
        Unmanaged<Object>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Calls `body` with the object a ``retainedPointer(_:)`` pointer owns, neither taking
    /// the reference over nor retaining the object for the call: a thread's own slot object
    /// (``ThreadSpare/withSpare(_:)``). Lifetime: the pointer's reference keeps the object
    /// alive while `body` runs, because only the slot holds the pointer and only the calling
    /// thread's exit consumes it. `body` gets an ordinary strong reference.
    package static func borrow<Result>(_ pointer: UnsafeMutableRawPointer, _ body: (Object) throws -> Result) rethrows
        -> Result
    {
        try Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    /// Drops the reference a ``retainedPointer(_:)`` pointer owns (a slot's destructor).
    package static func release(_ pointer: UnsafeMutableRawPointer) {
        Unmanaged<Object>.fromOpaque(pointer).release()
    }
}
