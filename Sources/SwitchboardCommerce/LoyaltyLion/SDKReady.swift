import Switchboard

/// LoyaltyLion's `sdkReady`: the SDK in the web view has finished loading and
/// its JavaScript API can be used. The message has no body; any body sent is ignored.
public struct SDKReady: BodylessEvent, Hashable {
    /// `sdkReady`.
    public static let channel: Channel = "sdkReady"

    /// Creates the event.
    public init() {}
}
