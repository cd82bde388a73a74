@testable import SwitchboardJSON

/// The bytes the encoder's tree path writes for `value`: what `encodeJSON` writes when the
/// one-pass stream gives up on a value, and what the stream must write when it does not.
func treeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
    let node = try box(value, state: EncodingState(), parent: nil, key: nil)
    var writer = JSONWriter()
    node.write(to: &writer)
    return writer.bytes
}

/// ``treeBytes(_:)`` as text.
func treeText<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try treeBytes(value), as: UTF8.self)
}
