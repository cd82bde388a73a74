import Foundation

/// How much of the calling thread's stack is left, for the walks that cannot keep a stack of
/// their own: ``JSONValue``'s `Codable` conformance goes through another coder (`JSONEncoder`,
/// say), which recurses once per level in its own code. Such a walk stops with an error while
/// there is still room, rather than overflow the stack.
///
/// The lowest address of each thread's stack is looked up once (`pthread_getattr_np` on Linux, looked up with `dlsym`,
/// `pthread_get_stackaddr_np` on Apple systems) and kept in a thread-specific slot.
package enum StackRoom {
    /// The room a walk keeps: it stops when less is left below the caller's frame. Enough for
    /// an error to be made and thrown, and for a few levels of the other coder's frames (about
    /// 1.3 KiB a level for `JSONEncoder` in a debug build).
    package static let reserve = 96 * 1024

    /// The slot holding each thread's stack bottom (its address as the slot's pointer).
    private static let slot: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Whether less than ``reserve`` bytes of stack are left below the caller's frame.
    /// `false` when the stack's bounds are unknown.
    package static func isShort() -> Bool {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        guard let bottom = stackBottom() else { return false }
        // Below the bottom: not on the stack looked up (an alternate signal stack, say), so unknown.
        return here >= bottom && here - bottom < UInt(reserve)
    }

    /// The lowest address of the calling thread's stack, or `nil` when unknown.
    private static func stackBottom() -> UInt? {
        if let slot, let kept = pthread_getspecific(slot) { return UInt(bitPattern: kept) }
        guard let bottom = lookUpStackBottom() else { return nil }
        if let slot { pthread_setspecific(slot, UnsafeRawPointer(bitPattern: bottom)) }
        return bottom
    }

    private static func lookUpStackBottom() -> UInt? {
        #if canImport(Darwin)
            let thread = pthread_self()
            let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = UInt(pthread_get_stacksize_np(thread))
            return top > size ? top - size : nil
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
            return UInt(bitPattern: address)
        #endif
    }
}
