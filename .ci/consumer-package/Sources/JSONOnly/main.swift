// An app's use of SwitchboardJSON on its own: a body decoded from a Foundation tree and from
// JSON text, encoded back, and a body that does not decode, with its key path.
import SwitchboardJSON

struct CartLine: Codable, Sendable {
    let sku: String
    let quantity: Int
    let tags: [String]
}

let text = #"{"sku":"A-1","quantity":3,"tags":["gift"],"note":null}"#
let value = try JSONReader().read(Array(text.utf8))
let line = try BodyDecoder().decode(CartLine.self, from: value)
let tree: [String: Any] = ["sku": "A-1", "quantity": 3, "tags": ["gift"]]
let fromTree = try BodyDecoder().decode(CartLine.self, from: tree)
precondition(fromTree.sku == line.sku && fromTree.quantity == line.quantity)
var writer = JSONWriter()
writer.write(try BodyEncoder().encodeJSONValue(line))
print(String(decoding: writer.bytes, as: UTF8.self))
do {
    _ = try BodyDecoder().decode(CartLine.self, from: ["sku": "A-1", "quantity": 2.5, "tags": []] as [String: Any])
} catch {
    print(error.description)
}
