/// The push channels a router declared, each with its body type: a value compared by the
/// channels and types it holds, so two manifests tell whether their pushes differ.
struct DeclaredPushes: Sendable, Equatable {
    private(set) var types: [Channel: any Push.Type] = [:]

    /// The channels, sorted by name.
    var channels: [Channel] { types.keys.sorted { $0.name < $1.name } }

    /// Declares `type` on its channel (replacing the type declared there before).
    mutating func declare(_ type: any Push.Type) {
        types[type.channel] = type
    }

    static func == (lhs: DeclaredPushes, rhs: DeclaredPushes) -> Bool {
        lhs.types.count == rhs.types.count
            && lhs.types.allSatisfy { channel, type in
                rhs.types[channel].map { ObjectIdentifier($0) == ObjectIdentifier(type) } ?? false
            }
    }
}
