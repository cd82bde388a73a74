import Foundation
import Switchboard
import SwitchboardCommerce

/// Counts handler calls (the handlers do nothing else).
nonisolated(unsafe) var handlerCalls = 0

/// Section 2: what the router adds over calling the handler yourself.
struct RouterSection {
    let bare = Router()
    let withMiddleware = Router()
    let addCartLineBodies: [Any]
    let iterations: Int
    var registrations: [Registration] = []

    let sdkReadyHandler: @Sendable (SDKReady) -> Void = { _ in handlerCalls &+= 1 }
    let addCartLineHandler: @Sendable (AddCartLine) -> Void = { event in handlerCalls &+= event.quantity }

    init(corpus: Corpus, iterations: Int) {
        self.iterations = iterations
        var bodies: [Any] = []
        for message in corpus.messages where message.kind == .valid && message.channel == "addCartLine" {
            guard bodies.count < 2_000 else { break }
            if let object = try? JSONSerialization.jsonObject(with: Data(message.line)) as? [String: Any],
                let body = object["body"]
            {
                bodies.append(body)
            }
        }
        addCartLineBodies = bodies
        for router in [bare, withMiddleware] {
            let sdkReady = sdkReadyHandler
            let addCartLine = addCartLineHandler
            registrations.append(router.on(SDKReady.self) { event in sdkReady(event) })
            registrations.append(router.on(AddCartLine.self) { event in addCartLine(event) })
        }
        for index in 1...3 {
            registrations.append(
                withMiddleware.use(Middleware { message, next in next(message) }, name: "pass-through \(index)"))
        }
    }

    // MARK: sdkReady (no body): the router's own cost

    func directSDKReady() -> Int {
        let before = handlerCalls
        let handler = sdkReadyHandler
        for _ in 0..<iterations { handler(SDKReady()) }
        return handlerCalls &- before
    }

    @inline(never) func receiveSDKReady(_ router: Router) -> Int {
        var handled = 0
        for _ in 0..<iterations {
            if case .handled = router.receive(name: "sdkReady", body: nil) { handled &+= 1 }
        }
        return handled
    }

    // MARK: addCartLine (a real body): decoding included on both sides

    func directAddCartLine() -> Int {
        let decoder = BodyDecoder()
        let handler = addCartLineHandler
        var handled = 0
        for index in 0..<iterations {
            let body = addCartLineBodies[index % addCartLineBodies.count]
            if let event = try? decoder.decode(AddCartLine.self, from: body) {
                handler(event)
                handled &+= 1
            }
        }
        return handled
    }

    @inline(never) func receiveAddCartLine(_ router: Router) -> Int {
        var handled = 0
        for index in 0..<iterations {
            let body = addCartLineBodies[index % addCartLineBodies.count]
            if case .handled = router.receive(name: "addCartLine", body: body) { handled &+= 1 }
        }
        return handled
    }
}
