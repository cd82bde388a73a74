import Testing

@testable import SwitchboardJSON

/// Where the room left on the stack cannot be seen, the walk's depth decides: how deep depends on
/// why it cannot be seen.
@Suite struct StackRoomTests {
    /// A static binary has no `pthread_getattr_np` to look up: the walks stopped at 64 levels,
    /// below the 512 a reader gives by default.
    @Test func aWalkWhoseStackBoundsAreUnknownNestsTheDefaultDepthLimit() {
        #expect(StackRoom.unknownStackLevels == DecodingOptions().maxDepth)
        #expect(!StackRoom.isShort(at: 0x7000, within: nil, depth: 511))
        #expect(StackRoom.isShort(at: 0x7000, within: nil, depth: 512))
    }

    /// AddressSanitizer's frames for use after return are not on the thread's stack.
    @Test func aFrameOffTheStackNestsTheBlindLevels() {
        let bounds = (bottom: UInt(0x10_0000), top: UInt(0x20_0000))
        #expect(!StackRoom.isShort(at: 0x30_0000, within: bounds, depth: StackRoom.blindLevels - 1))
        #expect(StackRoom.isShort(at: 0x30_0000, within: bounds, depth: StackRoom.blindLevels))
    }

    @Test func aFrameOnTheStackIsShortOnlyWithinTheReserve() {
        let bounds = (bottom: UInt(0x10_0000), top: UInt(0x20_0000))
        #expect(!StackRoom.isShort(at: 0x10_0000 + UInt(StackRoom.reserve), within: bounds, depth: 100_000))
        #expect(StackRoom.isShort(at: 0x10_0000 + UInt(StackRoom.reserve) - 1, within: bounds, depth: 0))
    }

}
