import Switchboard

/// InAppStory's `productCartClicked`: the shopper tapped the widget's
/// go-to-cart button; the host shows its cart screen. No body.
public struct ProductCartClicked: BodylessEvent, Hashable {
    /// `productCartClicked`.
    public static let channel: Channel = "productCartClicked"

    /// Creates the event.
    public init() {}
}
