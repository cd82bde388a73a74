import Switchboard

/// The reference commerce handlers: one ``Cart`` and one ``Wishlist`` that
/// handle every channel of the three SDKs, installable into a router in one line.
///
/// ```swift
/// let router = Router()
/// let commerce = try router.installReferenceCommerce()   // keep it: releasing it uninstalls
/// ```
/// Any handler can be overridden: leave it out with `except:` and register your
/// own, or replace it after installing with the router's one-line replacement:
/// ```swift
/// let commerce = try router.installReferenceCommerce(except: [AddCartLine.channel])
/// let mine = router.on(AddCartLine.self) { line, _ in shopify.add(line) }
/// // or
/// let replaced = router.replaceHandlers(of: SDKReady.self) { _, _ in print("ready") }
/// ```
///
/// | channel | kind | reference behaviour |
/// |---|---|---|
/// | `sdkReady` | event | counts it (``sdkReadyCount``) |
/// | `addCartLine` | event | ``Cart/add(_:)`` |
/// | `removeCartLine` | event | ``Cart/removeLine(id:)`` |
/// | `productCartUpdate` | request → ``ProductCart`` | ``Cart/update(_:)`` |
/// | `productCartGetState` | request → ``ProductCart`` | ``Cart/productCart()`` |
/// | `productCartClicked` | event | counts it (``cartButtonClicks``) |
/// | `wishlistEntryUpdate` | event | ``Wishlist/apply(_:)`` |
/// | `wishlistGetState` | request → ``WishlistState`` | ``Wishlist/snapshot`` |
/// | `cartChanged` | push → ``CartChanged`` | pushed after each change of the cart, when someone observes pushes |
public final class ReferenceCommerce: Sendable {
    /// Every channel the reference handlers serve, sorted by name.
    public static let channels: [Channel] = [
        AddCartLine.channel, ProductCartClicked.channel, ProductCartGetState.channel, ProductCartUpdate.channel,
        RemoveCartLine.channel, SDKReady.channel, WishlistEntryUpdate.channel, WishlistGetState.channel,
    ]

    /// The cart the handlers change.
    public let cart: Cart
    /// The wishlist the handlers change.
    public let wishlist: Wishlist

    private struct Counters {
        var sdkReady = 0
        var cartButtonClicks = 0
    }

    private let counters = Locked(Counters())

    /// Creates the handlers over a cart and a wishlist.
    public init(cart: Cart = Cart(), wishlist: Wishlist = Wishlist()) {
        self.cart = cart
        self.wishlist = wishlist
    }

    /// How many `sdkReady` messages arrived.
    public var sdkReadyCount: Int { counters.withLock { $0.sdkReady } }

    /// How many `productCartClicked` messages arrived (the host would show its cart screen each time).
    public var cartButtonClicks: Int { counters.withLock { $0.cartButtonClicks } }

    /// Registers the reference handlers on `router` and declares the commerce features: what
    /// `Router.installReferenceCommerce(_:only:except:)`, the one public way, does.
    package func install(
        into router: Router, only: Set<Channel>? = nil, except: Set<Channel> = []
    ) throws(CommerceInstallError) -> CommerceInstallation {
        let known = Set(ReferenceCommerce.channels)
        let unknown = (only ?? []).union(except).subtracting(known)
        guard unknown.isEmpty else { throw .unknownChannels(unknown.sorted()) }
        let wanted = ReferenceCommerce.channels.filter { (only ?? known).contains($0) && !except.contains($0) }

        router.declare(Feature.commerce)
        let changesCart: Set<Channel> = [AddCartLine.channel, RemoveCartLine.channel, ProductCartUpdate.channel]
        if wanted.contains(where: changesCart.contains) { router.declare(push: CartChanged.self) }
        var registrations: [Registration] = []
        do {
            for channel in wanted {
                registrations.append(try register(channel, on: router))
            }
        } catch {
            for registration in registrations { registration.cancel() }
            throw .responderExists(error)
        }
        return CommerceInstallation(commerce: self, channels: wanted, registrations: registrations)
    }

    private func register(_ channel: Channel, on router: Router) throws(RegistrationError) -> Registration {
        let cart = cart
        let wishlist = wishlist
        switch channel {
        case SDKReady.channel:
            return router.on(SDKReady.self) { [counters] _, _ in counters.withLock { $0.sdkReady += 1 } }
        case AddCartLine.channel:
            return router.on(AddCartLine.self) { [weak router] line, _ in
                try cart.addDiscardingLine(line)
                ReferenceCommerce.pushChange(of: cart, to: router)
            }
        case RemoveCartLine.channel:
            return router.on(RemoveCartLine.self) { [weak router] line, _ in
                try cart.removeLine(id: line.lineId)
                ReferenceCommerce.pushChange(of: cart, to: router)
            }
        case ProductCartUpdate.channel:
            return try router.respond(to: ProductCartUpdate.self) { [weak router] request, reply in
                do throws(CartError) {
                    let updated = try cart.update(request.offer)
                    ReferenceCommerce.pushChange(of: cart, to: router, offers: updated)
                    reply.succeed(updated)
                } catch {
                    reply.fail(error)
                }
            }
        case ProductCartGetState.channel:
            return try router.respond(to: ProductCartGetState.self) { _, reply in
                do throws(CartError) {
                    reply.succeed(try cart.productCart())
                } catch {
                    reply.fail(error)
                }
            }
        case ProductCartClicked.channel:
            return router.on(ProductCartClicked.self) { [counters] _, _ in
                counters.withLock { $0.cartButtonClicks += 1 }
            }
        case WishlistEntryUpdate.channel:
            return router.on(WishlistEntryUpdate.self) { update, _ in wishlist.applyDiscardingState(update) }
        case WishlistGetState.channel:
            return try router.respond(to: WishlistGetState.self) { _, reply in reply.succeed(wishlist.snapshot) }
        default:
            return .inert
        }
    }
}

extension ReferenceCommerce {
    /// Pushes ``CartChanged`` with the cart's offers (`offers`, when the caller has them) and lines,
    /// when anyone observes the router's pushes (otherwise nothing is computed: a cart change costs
    /// the same whatever the cart holds).
    static func pushChange(of cart: Cart, to router: Router?, offers: ProductCart? = nil) {
        guard let router, router.isObservingPushes else { return }
        guard let offers = offers ?? (try? cart.productCart()) else { return }
        router.push(CartChanged(cart: offers, lines: cart.lines))
    }
}

extension Router {
    /// Registers the reference commerce handlers of `commerce` on this router and declares the
    /// commerce features (`Feature.commerce`), so the manifest shows which are enabled.
    /// - Parameters:
    ///   - commerce: the handlers (a new cart and wishlist by default).
    ///   - only: the channels to install; `nil` installs all of ``ReferenceCommerce/channels``.
    ///   - except: channels to leave out, so that your own handlers take them.
    /// - Returns: the installation; keep it, releasing it unregisters the handlers.
    /// - Throws: ``CommerceInstallError/unknownChannels(_:)`` when `only` or `except`
    ///   names a channel the reference does not serve;
    ///   ``CommerceInstallError/responderExists(_:)`` when a request channel to
    ///   install has a responder already (nothing is installed then).
    public func installReferenceCommerce(
        _ commerce: ReferenceCommerce = ReferenceCommerce(), only: Set<Channel>? = nil, except: Set<Channel> = []
    ) throws(CommerceInstallError) -> CommerceInstallation {
        try commerce.install(into: self, only: only, except: except)
    }
}

/// The reference handlers installed on a router. Keep it for as long as they
/// should handle messages: cancelling it, or releasing it, unregisters them.
public final class CommerceInstallation: Sendable {
    /// The handlers, with their cart and wishlist.
    public let commerce: ReferenceCommerce
    /// The channels installed, sorted by name.
    public let channels: [Channel]
    private let registrations: [Registration]

    init(commerce: ReferenceCommerce, channels: [Channel], registrations: [Registration]) {
        self.commerce = commerce
        self.channels = channels
        self.registrations = registrations
    }

    /// The cart the handlers change.
    public var cart: Cart { commerce.cart }
    /// The wishlist the handlers change.
    public var wishlist: Wishlist { commerce.wishlist }

    /// Unregisters every handler installed (handlers that replaced them since are kept).
    public func cancel() {
        for registration in registrations { registration.cancel() }
    }
}

/// Why the reference handlers were not installed.
public enum CommerceInstallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `only` or `except` named channels the reference does not serve (sorted).
    case unknownChannels([Channel])
    /// A request channel has a responder already.
    case responderExists(RegistrationError)

    /// A sentence naming the channels.
    public var description: String {
        switch self {
        case .unknownChannels(let channels):
            let names = channels.map(\.name).joined(separator: ", ")
            let known = ReferenceCommerce.channels.map(\.name).joined(separator: ", ")
            return "unknown commerce channel\(channels.count == 1 ? "" : "s"): \(names) (known: \(known))"
        case .responderExists(let error):
            return error.description
        }
    }
}
