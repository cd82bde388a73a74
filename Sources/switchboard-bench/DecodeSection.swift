import Foundation
import Switchboard
import SwitchboardCommerce

/// Section 1: decoding a body that `JSONSerialization` has already parsed
/// (what a WebKit handler holds), three ways, over the whole mix and per event type.
struct DecodeSection {
    enum Kind: Int, CaseIterable {
        case addCartLine, removeCartLine, productCartUpdate, wishlistEntryUpdate

        /// The event type's name, as the report shows it (taken from the type, so it follows a rename).
        var typeName: String {
            let type: any Event.Type
            switch self {
            case .addCartLine: type = AddCartLine.self
            case .removeCartLine: type = RemoveCartLine.self
            case .productCartUpdate: type = ProductCartUpdate.self
            case .wishlistEntryUpdate: type = WishlistEntryUpdate.self
            }
            return String(describing: type)
        }
    }

    struct Sample {
        let kind: Kind
        let body: Any
    }

    let samples: [Sample]

    /// The same section over the samples of one event type only.
    func only(_ kind: Kind) -> DecodeSection {
        DecodeSection(samples: samples.filter { $0.kind == kind })
    }

    private init(samples: [Sample]) {
        self.samples = samples
    }

    /// The valid messages with a body, parsed with `JSONSerialization`, up to `limit`.
    init(corpus: Corpus, limit: Int) {
        var samples: [Sample] = []
        for message in corpus.messages where message.kind == .valid {
            guard samples.count < limit else { break }
            let kind: Kind
            switch message.channel {
            case "addCartLine": kind = .addCartLine
            case "removeCartLine": kind = .removeCartLine
            case "productCartUpdate": kind = .productCartUpdate
            case "wishlistEntryUpdate": kind = .wishlistEntryUpdate
            default: continue
            }
            guard let object = try? JSONSerialization.jsonObject(with: Data(message.line)) as? [String: Any],
                let body = object["body"]
            else { continue }
            samples.append(Sample(kind: kind, body: body))
        }
        self.samples = samples
    }

    func switchboard() -> Int {
        let decoder = BodyDecoder()
        var sum = 0
        for sample in samples {
            do {
                switch sample.kind {
                case .addCartLine: sum &+= try decoder.decode(AddCartLine.self, from: sample.body).quantity
                case .removeCartLine: sum &+= try decoder.decode(RemoveCartLine.self, from: sample.body).quantity
                case .productCartUpdate:
                    sum &+= try decoder.decode(ProductCartUpdate.self, from: sample.body).offer.quantity
                case .wishlistEntryUpdate:
                    sum &+= try decoder.decode(WishlistEntryUpdate.self, from: sample.body).isWishlisted ? 1 : 2
                }
            } catch {
                sum &+= 1_000_000
            }
        }
        return sum
    }

    func handWritten() -> Int {
        var sum = 0
        for sample in samples {
            switch sample.kind {
            case .addCartLine: sum &+= HandWritten.addCartLine(sample.body)?.quantity ?? 1_000_000
            case .removeCartLine: sum &+= HandWritten.removeCartLine(sample.body)?.quantity ?? 1_000_000
            case .productCartUpdate: sum &+= HandWritten.productCartUpdate(sample.body)?.offer.quantity ?? 1_000_000
            case .wishlistEntryUpdate:
                sum &+= HandWritten.wishlistEntryUpdate(sample.body).map { $0.isWishlisted ? 1 : 2 } ?? 1_000_000
            }
        }
        return sum
    }

    func roundTrip() -> Int {
        let decoder = JSONDecoder()
        var sum = 0
        for sample in samples {
            do {
                let data = try JSONSerialization.data(withJSONObject: sample.body)
                switch sample.kind {
                case .addCartLine: sum &+= try decoder.decode(AddCartLine.self, from: data).quantity
                case .removeCartLine: sum &+= try decoder.decode(RemoveCartLine.self, from: data).quantity
                case .productCartUpdate: sum &+= try decoder.decode(ProductCartUpdate.self, from: data).offer.quantity
                case .wishlistEntryUpdate:
                    sum &+= try decoder.decode(WishlistEntryUpdate.self, from: data).isWishlisted ? 1 : 2
                }
            } catch {
                sum &+= 1_000_000
            }
        }
        return sum
    }

    /// Checks the three agree before anything is timed, so a fast wrong answer cannot win.
    func agree() -> Bool {
        let a = switchboard()
        return a == handWritten() && a == roundTrip()
    }
}
