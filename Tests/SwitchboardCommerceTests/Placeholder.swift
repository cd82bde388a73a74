import Testing

@Suite struct SwitchboardCommerceTestsPlaceholder {
    @Test func builds() { #expect(Bool(true)) }
}
