/// The decoder a type's `init(from:)` runs on while ``SchemaDeriver`` derives its schema.
///
/// It records into a ``ProbeNode`` what it is asked and answers with placeholder
/// values (see ``ProbeMode``). It may be kept by the type after `init(from:)`
/// returns: it holds only its own objects, never a lock.
final class SchemaProbe: Decoder, SingleValueDecodingContainer {
    let deriver: SchemaDeriver
    let node: ProbeNode
    let mode: ProbeMode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(deriver: SchemaDeriver, node: ProbeNode, mode: ProbeMode, codingPath: [any CodingKey]) {
        self.deriver = deriver
        self.node = node
        self.mode = mode
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try deriver.spend()
        try node.request(.object)
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: self, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try deriver.spend()
        try node.request(.array)
        return ProbeUnkeyedContainer(probe: self, node: node, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try deriver.spend()
        try node.request(.single)
        return self
    }

    /// Records that `type` is read here (its schema is `part`, or derived) and returns a placeholder.
    func read<T: Decodable>(_ type: T.Type, record: (ProbeNode.Part) -> Void) throws -> T {
        try deriver.spend()
        record(.known(deriver.schema(T.self)))
        return try deriver.value(T.self, mode: mode)
    }

    /// A probe for a nested container, recording into a new node that `record` files.
    func nested(_ key: (any CodingKey)?, record: (ProbeNode.Part) -> Void) throws -> SchemaProbe {
        try deriver.spend()
        let child = ProbeNode()
        record(.node(child))
        return SchemaProbe(deriver: deriver, node: child, mode: mode, codingPath: codingPath + (key.map { [$0] } ?? []))
    }

    // MARK: SingleValueDecodingContainer

    /// Never null: a type that then decodes a value is nullable (the node notes the check).
    func decodeNil() -> Bool {
        if deriver.isInUse { node.addStep(.nilCheck) }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(T.self) { node.addSingle($0) } }
    func decode(_ type: Bool.Type) throws -> Bool { try read(Bool.self) { node.addSingle($0) } }
    func decode(_ type: String.Type) throws -> String { try read(String.self) { node.addSingle($0) } }
    func decode(_ type: Double.Type) throws -> Double { try read(Double.self) { node.addSingle($0) } }
    func decode(_ type: Float.Type) throws -> Float { try read(Float.self) { node.addSingle($0) } }
    func decode(_ type: Int.Type) throws -> Int { try read(Int.self) { node.addSingle($0) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try read(Int8.self) { node.addSingle($0) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try read(Int16.self) { node.addSingle($0) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try read(Int32.self) { node.addSingle($0) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try read(Int64.self) { node.addSingle($0) } }
    func decode(_ type: UInt.Type) throws -> UInt { try read(UInt.self) { node.addSingle($0) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read(UInt8.self) { node.addSingle($0) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read(UInt16.self) { node.addSingle($0) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read(UInt32.self) { node.addSingle($0) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read(UInt64.self) { node.addSingle($0) } }
}

/// The keyed container of a ``SchemaProbe``: every key it is asked for is a member.
struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe
    let node: ProbeNode
    let codingPath: [any CodingKey]

    /// The keys of the value are not known: a type that reads them decides by them.
    var allKeys: [Key] {
        if probe.deriver.isInUse { node.cannotDescribe("reads the keys it finds (allKeys)") }
        return []
    }

    /// The first run finds every key; the second none (a type that branches on it differs).
    func contains(_ key: Key) -> Bool { probe.mode == .first }

    /// The first run finds no null; the second finds every key null.
    func decodeNil(forKey key: Key) throws -> Bool { probe.mode == .second }

    private func required<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try probe.read(T.self) { node.addMember(key.stringValue, $0, required: true) }
    }

    /// Optional and nullable; the second run finds it absent.
    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try probe.deriver.spend()
        let schema = probe.deriver.schema(T.self)
        node.addMember(key.stringValue, .known(JSONSchema(schema).nullable.json), required: false)
        guard probe.mode == .first else { return nil }
        do {
            return try probe.deriver.value(T.self, mode: .first)
        } catch ProbeFailure.noValue {
            // A type that refers to itself through an optional member: absent is a value too.
            return nil
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try required(T.self, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(Bool.self, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(String.self, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(Double.self, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try required(Float.self, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(Int.self, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try required(Int8.self, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try required(Int16.self, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try required(Int32.self, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(Int64.self, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try required(UInt.self, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try required(UInt8.self, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try required(UInt16.self, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try required(UInt32.self, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try required(UInt64.self, key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(T.self, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(Bool.self, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(String.self, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(Double.self, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(Float.self, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(Int.self, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(Int8.self, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(Int16.self, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(Int32.self, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(Int64.self, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(UInt.self, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(UInt8.self, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(UInt16.self, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(UInt32.self, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(UInt64.self, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let child = try probe.nested(key) { node.addMember(key.stringValue, $0, required: true) }
        return try child.container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let child = try probe.nested(key) { node.addMember(key.stringValue, $0, required: true) }
        return try child.unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        if probe.deriver.isInUse { node.cannotDescribe("uses superDecoder()") }
        throw ProbeFailure.unsupported
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        if probe.deriver.isInUse { node.cannotDescribe("uses superDecoder(forKey:)") }
        throw ProbeFailure.unsupported
    }
}

/// The unkeyed container of a ``SchemaProbe``: one element, then the end.
final class ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let probe: SchemaProbe
    let node: ProbeNode
    let codingPath: [any CodingKey]
    /// Written and read only on the derivation's thread (see ``currentIndex``).
    private var index = 0

    /// The elements read so far; 0 off the derivation's thread, where the probe answers nothing.
    var currentIndex: Int { probe.deriver.isInUse ? index : 0 }

    init(probe: SchemaProbe, node: ProbeNode, codingPath: [any CodingKey]) {
        self.probe = probe
        self.node = node
        self.codingPath = codingPath
    }

    /// Unknown, as for a real array read element by element; a type that reads its elements
    /// by the count (not until `isAtEnd`) is marked underivable.
    var count: Int? {
        if probe.deriver.isInUse { node.addStep(.count) }
        return nil
    }

    /// "Not at end" until one element has been read (or its read refused). Each call counts
    /// against the budget: a loop that never reads an element ends when it is spent.
    var isAtEnd: Bool {
        guard probe.deriver.isInUse, (try? probe.deriver.spend()) != nil else { return true }
        let atEnd = index >= 1
        node.addStep(.atEnd(atEnd))
        return atEnd
    }

    func decodeNil() throws -> Bool {
        try probe.deriver.spend()
        node.addStep(.nilCheck)
        return false
    }

    // On the derivation's thread the index moves after every read, one the probe refuses too
    // (unlike a real decoder, which stays on an element that fails), so that
    // `while !isAtEnd { try? decode(…) }` ends on the probe.
    private func advance() {
        if probe.deriver.isInUse { index += 1 }
    }

    private func element<T: Decodable>(_ type: T.Type) throws -> T {
        defer { advance() }
        return try probe.read(T.self) { node.addElement($0) }
    }

    private func optionalElement<T: Decodable>(_ type: T.Type) throws -> T? {
        defer { advance() }
        return try probe.read(T.self) { node.addElement(.known(JSONSchema($0.schema).nullable.json)) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(T.self) }
    func decode(_ type: Bool.Type) throws -> Bool { try element(Bool.self) }
    func decode(_ type: String.Type) throws -> String { try element(String.self) }
    func decode(_ type: Double.Type) throws -> Double { try element(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try element(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try element(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try element(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try element(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try element(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try element(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try element(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try element(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try element(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try element(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try element(UInt64.self) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try optionalElement(T.self) }
    func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try optionalElement(Bool.self) }
    func decodeIfPresent(_ type: String.Type) throws -> String? { try optionalElement(String.self) }
    func decodeIfPresent(_ type: Double.Type) throws -> Double? { try optionalElement(Double.self) }
    func decodeIfPresent(_ type: Float.Type) throws -> Float? { try optionalElement(Float.self) }
    func decodeIfPresent(_ type: Int.Type) throws -> Int? { try optionalElement(Int.self) }
    func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try optionalElement(Int8.self) }
    func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try optionalElement(Int16.self) }
    func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try optionalElement(Int32.self) }
    func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try optionalElement(Int64.self) }
    func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try optionalElement(UInt.self) }
    func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try optionalElement(UInt8.self) }
    func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try optionalElement(UInt16.self) }
    func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try optionalElement(UInt32.self) }
    func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try optionalElement(UInt64.self) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey>
    {
        defer { advance() }
        return try probe.nested(nil) { node.addElement($0) }.container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        defer { advance() }
        return try probe.nested(nil) { node.addElement($0) }.unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        if probe.deriver.isInUse { node.cannotDescribe("uses superDecoder()") }
        throw ProbeFailure.unsupported
    }
}
