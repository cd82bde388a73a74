import Switchboard
import Testing

@Suite struct ChannelTests {
    @Test func aNameIsValidatedOnTheWayIn() throws {
        #expect(try Channel(validating: "addCartLine").name == "addCartLine")
        #expect(try Channel(validating: "café-ünïcode").name == "café-ünïcode")
        #expect(throws: ChannelNameError.empty) { try Channel(validating: "") }
        #expect(throws: ChannelNameError.controlCharacter(scalar: 0x09, offset: 2)) { try Channel(validating: "ab\tc") }
        #expect(throws: ChannelNameError.controlCharacter(scalar: 0x7F, offset: 0)) {
            try Channel(validating: "\u{7F}")
        }
        // C1 controls are control characters too, past non-ASCII text (offsets count scalars).
        #expect(throws: ChannelNameError.controlCharacter(scalar: 0x85, offset: 2)) {
            try Channel(validating: "é1\u{85}")
        }
        let long = String(repeating: "a", count: Channel.maxLength + 1)
        #expect(throws: ChannelNameError.tooLong(byteCount: Channel.maxLength + 1, limit: Channel.maxLength)) {
            try Channel(validating: long)
        }
    }

    @Test func channelsSortByName() {
        let channels: [Channel] = ["removeCartLine", "addCartLine", "sdkReady"]
        #expect(channels.sorted().map(\.name) == ["addCartLine", "removeCartLine", "sdkReady"])
    }
}
