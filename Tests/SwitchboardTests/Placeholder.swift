import Testing

@Suite struct SwitchboardTestsPlaceholder {
    @Test func builds() { #expect(Bool(true)) }
}
