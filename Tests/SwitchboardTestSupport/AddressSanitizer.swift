import Foundation

/// Whether this test binary runs under AddressSanitizer, whose redzones make every stack frame
/// several times larger: the deep-value suites give their threads more stack then.
public enum AddressSanitizer {
    /// True when the runtime's `__asan_init` is loaded. Looked up through `dlopen(nil)`'s handle,
    /// which means the running program on every platform (a null handle means `RTLD_DEFAULT` on
    /// Linux only: on Darwin that is `(void *)-2`, and a null handle finds nothing).
    public static let isActive: Bool = {
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(program) }
        return dlsym(program, "__asan_init") != nil
    }()

    /// A thread stack of `bytes` in a plain build, four times as large under AddressSanitizer
    /// (its frames are several times larger than in the build a host app ships).
    /// - Parameter bytes: the stack the test means, in bytes.
    /// - Returns: the stack to give the thread.
    public static func stackSize(_ bytes: Int) -> Int { isActive ? bytes * 4 : bytes }
}
