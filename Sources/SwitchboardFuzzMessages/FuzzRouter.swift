import Switchboard
import SwitchboardCommerce

/// One router for the life of the process, as the CLI has one: three middleware
/// (pass, stop, rewrite) and the origin policies of a few channels (``FuzzPolicies``)
/// set once, and the reference commerce handlers,
/// installed afresh for each input (a new cart and wishlist, line ids from 1)
/// so that an input's outcomes do not depend on the inputs before it.
final class FuzzRouter: Sendable {
    let router: Router
    private let middleware: [Registration]
    private let installation = Locked<CommerceInstallation?>(nil)

    init() {
        router = Router()
        middleware = FuzzMiddleware.install(on: router)
        FuzzPolicies.install(on: router)
    }

    /// Replaces the reference handlers with new ones over an empty cart and wishlist.
    func renew() {
        installation.withLock { current in
            current?.cancel()
            current = nil
            do {
                current = try router.installReferenceCommerce()
            } catch {
                fuzzFail("the reference commerce could not be installed again: \(error)")
            }
        }
    }
}

/// The middleware every fuzz router runs, outermost first.
enum FuzzMiddleware {
    /// Channels the stop middleware answers itself.
    static let blocked = "blocked"
    static let cannedReply = "cannedReply"
    static let swallowed = "swallowed"
    /// Names starting with this are rewritten to the rest of the name.
    static let legacyPrefix = "legacy."

    static func install(on router: Router) -> [Registration] {
        [
            // Pass: sees every message, changes nothing.
            router.use(Middleware { message, next in next(message) }, name: "pass"),
            // Stop: answers a few channels itself, without delivery.
            router.use(
                Middleware { message, next in
                    switch message.channel.name {
                    case blocked: return .stopped(reason: "blocked by the fuzz policy")
                    case cannedReply: return .replied(ReplyValue(JSONValue.object(["canned": .bool(true)])))
                    case swallowed: return .handled(count: 0)
                    default: return next(message)
                    }
                }, name: "stop"),
            // Rewrite: `legacy.<channel>` goes on as `<channel>`, same body and id.
            router.use(
                Middleware { message, next in
                    let name = message.channel.name
                    guard name.hasPrefix(legacyPrefix),
                        let channel = try? Channel(validating: String(name.dropFirst(legacyPrefix.count)))
                    else { return next(message) }
                    var rewritten = message
                    rewritten.channel = channel
                    return next(rewritten)
                }, name: "rewrite"),
        ]
    }
}

/// The origin policies every fuzz router sets, so that fuzzing reaches `rejected`: a
/// message to one of these channels (directly, or rewritten from `legacy.<channel>`,
/// checked again after the rewrite) is refused unless its `origin` and `mainFrame` fit.
enum FuzzPolicies {
    /// Each channel's allowed origin patterns and whether sub-frames may call it.
    static let policies: [(channel: Channel, allowing: [String], allowsSubframes: Bool)] = [
        ("removeCartLine", ["https://shop.example.com"], false),
        ("wishlistEntryUpdate", ["https://*.shop.example", "http://localhost:8080"], true),
        // Checked before middleware: the stop middleware never sees a refused message.
        (Channel(stringLiteral: FuzzMiddleware.blocked), ["https://shop.example.com"], false),
    ]

    static func install(on router: Router) {
        for (channel, allowing, allowsSubframes) in policies {
            do {
                router.setOriginPolicy(
                    try OriginPolicy(allowing: allowing, allowsSubframes: allowsSubframes), for: channel)
            } catch {
                fuzzFail("the fuzz origin policy \(allowing) does not parse: \(error)")
            }
        }
    }
}
