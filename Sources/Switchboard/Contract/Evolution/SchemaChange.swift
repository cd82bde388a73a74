/// One difference between two schemas found by ``SchemaComparison``, before its direction
/// classifies it: where it is, whether the new schema takes fewer values there (narrowed),
/// more (widened) or both, and how to look for a value that shows it.
struct SchemaChange: Sendable, Hashable {
    /// One step into a value.
    enum Step: Sendable, Hashable {
        /// A member of an object, by key.
        case key(String)
        /// An element of an array, by index (`prefixItems`).
        case index(Int)
        /// Every element of an array (`items`): `*` in the pointer.
        case element
        /// Every member of an object not listed in `properties` (`additionalProperties`): `*`.
        case member

        /// The step as a JSON Pointer reference token (`~` and `/` escaped).
        var token: String {
            switch self {
            case .key(let key): key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            case .index(let index): String(index)
            case .element, .member: "*"
            }
        }
    }

    /// What the new schema does to the values the old one took.
    enum Effect: Sendable, Hashable {
        /// It takes fewer values.
        case narrowed
        /// It takes more values.
        case widened
        /// It takes some values the old did not, and refuses some it took.
        case changed
        /// The difference cannot be judged.
        case unknown

        /// The severity of this effect for values travelling in `direction`: what the page sends
        /// breaks when narrowed, what the app sends when widened.
        func severity(in direction: ContractChange.Direction) -> ContractChange.Severity {
            switch (self, direction) {
            case (.unknown, _): .unknown
            case (.changed, _): .breaking
            case (.narrowed, .pageToApp), (.widened, .appToPage): .breaking
            case (.narrowed, .appToPage), (.widened, .pageToApp): .compatible
            }
        }
    }

    /// How to look for a value the old schema takes and the new one refuses, at ``node``.
    enum Witness: Sendable, Hashable {
        /// One of these values.
        case values([JSONValue])
        /// A value of the old schema with this key left out (an object).
        case withoutKey(String)
        /// A value of the old schema with this key present (an object).
        case withKey(String)
        /// A value of the old schema with one more member, not listed in `properties`.
        case extraMember
        /// A value of the old schema of one of these JSON types.
        case ofTypes([String])
        /// Arrays of these lengths, of elements the old schema takes.
        case lengths([Int])
        /// Values of the old schema, tried one after another.
        case search
    }

    /// Where the change is, from the body or reply.
    var path: [Step]
    /// Narrowed, widened, both, or unknown.
    var effect: Effect
    /// What changed, in words.
    var text: String
    /// How to find an example, where one applies.
    var witness: Witness?
    /// Where the witness is placed, from the body or reply (the object for a key's requirement).
    var node: [Step]
    /// The old and new schemas at ``node``.
    var oldSchema: JSONValue
    var newSchema: JSONValue

    /// A change at the schemas' own level (its path and node empty).
    init(
        _ effect: Effect, _ text: String, witness: Witness? = nil, at path: [Step] = [], old: JSONValue,
        new: JSONValue
    ) {
        self.path = path
        self.effect = effect
        self.text = text
        self.witness = witness
        self.node = []
        self.oldSchema = old
        self.newSchema = new
    }

    /// The change seen from one level up: `step` before its path and node.
    func below(_ step: Step) -> SchemaChange {
        var moved = self
        moved.path.insert(step, at: 0)
        moved.node.insert(step, at: 0)
        return moved
    }

    /// The path as a JSON Pointer (`""`, `/offer/quantity`, `/lines/*`).
    var pointer: String {
        path.map { "/" + $0.token }.joined()
    }
}
