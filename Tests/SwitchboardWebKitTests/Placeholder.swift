import Testing

@Suite struct SwitchboardWebKitTestsPlaceholder {
    @Test func builds() { #expect(Bool(true)) }
}
