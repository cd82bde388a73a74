import Foundation
import Testing

@testable import SwitchboardCommerce

/// Cart totals: the exact fixed-point path gives the text the `Decimal` path gives, on random terms.
@Suite struct CartTotalsTests {
    @Test(arguments: [3] as [UInt64])
    func theIntegerPathGivesTheDecimalPathsText(seed: UInt64) throws {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        let shapes = [
            "0", "7", "10.50", "0.05", "35.99", "180.00", "1.5", "99999999.99", "123456789012345678", "0.000001",
            "12.3456789",
        ]
        var compared = 0
        for _ in 0..<3000 {
            var terms: [CartTotals.Term] = []
            for _ in 0..<Int(next() % 5) {
                let text =
                    next() % 3 == 0 ? shapes[Int(next() % UInt64(shapes.count))] : "\(next() % 100_000).\(next() % 100)"
                let price = try #require(CartTotals.parse(text), "seed \(seed): \(text)")
                let quantity = [0, 1, 2, 3, 12, 1000, Int(Int32.max)][Int(next() % 7)]
                terms.append(CartTotals.Term(price: price, quantity: quantity))
            }
            let decimal = CartTotals.decimalTotal(of: terms)
            if let fast = CartTotals.integerTotal(of: terms) {
                #expect(fast == decimal, "seed \(seed): \(terms.map { ($0.price.value, $0.quantity) })")
                compared += 1
            }
            #expect(CartTotals.total(of: terms) == decimal, "seed \(seed)")
        }
        #expect(compared > 2000, "seed \(seed): the integer path took \(compared) of 3000")
    }

    @Test func parsedPricesKeepTheirExactValue() throws {
        for text in ["0", "00.10", "10.50", "35.99", "123456789012345678", "1234567890123456789.5"] {
            let price = try #require(CartTotals.parse(text))
            #expect(price.value == Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), "\(text)")
        }
    }
}
