import Testing

@Suite struct SwitchboardTestingTestsPlaceholder {
    @Test func builds() { #expect(Bool(true)) }
}
