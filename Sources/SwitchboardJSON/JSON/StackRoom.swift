import Foundation

/// How much of the calling thread's stack is left, for the walks that cannot keep a stack of
/// their own: ``JSONValue``'s `Codable` conformance goes through another coder (`JSONEncoder`,
/// say), which recurses once per level in its own code. Such a walk stops with an error while
/// there is still room, rather than overflow the stack.
///
/// The bounds of each thread's stack are looked up once (`pthread_getattr_np` on Linux, looked
/// up with `dlsym`, `pthread_get_stackaddr_np` on Apple systems) and kept in thread-specific
/// slots. Where a local variable's address is not on that stack (AddressSanitizer's detection
/// of use after return keeps locals in frames of its own; an alternate signal stack), the room
/// cannot be seen, and the walk's depth decides instead (``blindLevels``). Where the bounds
/// cannot be looked up at all (a static binary, where `dlsym` finds no `pthread_getattr_np`),
/// the walk's depth decides too, up to ``unknownStackLevels``: the 512 levels a reader gives by
/// default, the depth every operation is documented to reach. (Through `JSONEncoder` in a debug
/// build, about 1.3 KiB a level, that needs more than a 512 KiB thread's stack: a main thread's
/// 8 MiB, or a release build.)
package enum StackRoom {
    /// The room a walk keeps: it stops when less is left below the caller's frame. Enough for
    /// an error to be made and thrown, and for a few levels of the other coder's frames (about
    /// 1.3 KiB a level for `JSONEncoder` in a debug build).
    package static let reserve = 96 * 1024

    /// The levels a walk may nest where the room cannot be seen: what fits in 2 MiB with the
    /// larger frames of a sanitized build.
    package static let blindLevels = 64

    /// The levels a walk may nest where the thread's stack bounds cannot be looked up: the
    /// default depth limit of the readers (``DecodingOptions/maxDepth``).
    package static let unknownStackLevels = DecodingOptions.defaultMaxDepth

    /// The slots holding each thread's stack bottom and top (addresses as the slots' pointers),
    /// and its count of ``nested(_:)`` levels.
    private static let slots: (bottom: pthread_key_t, top: pthread_key_t, levels: pthread_key_t)? = {
        var bottom = pthread_key_t()
        var top = pthread_key_t()
        var levels = pthread_key_t()
        guard pthread_key_create(&bottom, nil) == 0, pthread_key_create(&top, nil) == 0,
            pthread_key_create(&levels, nil) == 0
        else { return nil }
        return (bottom, top, levels)
    }()

    /// Whether less than ``reserve`` bytes of stack are left below the caller's frame; where
    /// the stack's bounds are unknown, whether `depth` (the walk's nesting so far) is
    /// ``unknownStackLevels`` or more; where the caller's frame is not on that stack, whether
    /// it is ``blindLevels`` or more.
    package static func isShort(depth: @autoclosure () -> Int) -> Bool {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return isShort(at: here, within: stackBounds(), depth: depth())
    }

    /// ``isShort(depth:)`` for a frame at address `here` on a stack with the given bounds (`nil`
    /// when they could not be looked up).
    package static func isShort(at here: UInt, within bounds: (bottom: UInt, top: UInt)?, depth: @autoclosure () -> Int)
        -> Bool
    {
        guard let (bottom, top) = bounds else { return depth() >= unknownStackLevels }
        guard here >= bottom, here < top else { return depth() >= blindLevels }
        return here - bottom < UInt(reserve)
    }

    /// Runs `body` one level deeper in the calling thread's count of nested walks, giving it
    /// that depth (for ``isShort(depth:)``, in a walk that has no depth of its own to count).
    package static func nested<Result, Failure: Error>(
        _ body: (_ depth: Int) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard let slot = slots?.levels else { return try body(0) }
        let depth = Int(bitPattern: pthread_getspecific(slot)) + 1
        pthread_setspecific(slot, UnsafeRawPointer(bitPattern: depth))
        defer { pthread_setspecific(slot, UnsafeRawPointer(bitPattern: depth - 1)) }
        return try body(depth)
    }

    /// The lowest and highest addresses of the calling thread's stack, or `nil` when unknown.
    /// A failed look-up is kept too (as the bounds 1 and 1), so it is not repeated at every check.
    private static func stackBounds() -> (bottom: UInt, top: UInt)? {
        guard let slots else { return nil }
        if let bottom = pthread_getspecific(slots.bottom), let top = pthread_getspecific(slots.top) {
            let bounds = (bottom: UInt(bitPattern: bottom), top: UInt(bitPattern: top))
            return bounds.top > bounds.bottom ? bounds : nil
        }
        let bounds = lookUpStackBounds()
        pthread_setspecific(slots.bottom, UnsafeRawPointer(bitPattern: bounds?.bottom ?? 1))
        pthread_setspecific(slots.top, UnsafeRawPointer(bitPattern: bounds?.top ?? 1))
        return bounds
    }

    private static func lookUpStackBounds() -> (bottom: UInt, top: UInt)? {
        #if canImport(Darwin)
            let thread = pthread_self()
            let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = UInt(pthread_get_stacksize_np(thread))
            return top > size ? (top - size, top) : nil
        #else
            // `pthread_getattr_np` is a GNU extension the Glibc module does not declare: looked up by name.
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
            let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
            var attributes = pthread_attr_t()
            guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(&attributes) }
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
            let bottom = UInt(bitPattern: address)
            return (bottom, bottom + UInt(size))
        #endif
    }
}
