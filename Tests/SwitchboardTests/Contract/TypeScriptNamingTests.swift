import Foundation
import Switchboard
import Testing

/// Channel and type names TypeScript would misread: reserved words, characters no identifier
/// has, names that collide once PascalCased, user types named like the declarations' own.
enum TypeScriptNames {
    struct JSONValue: Codable, Sendable { let x: Int }
    struct Channels: Codable, Sendable { let y: Int }

    struct Keys: Codable, Sendable {
        let proto: Int
        let dashed: String
        let spaced: Bool

        enum CodingKeys: String, CodingKey {
            case proto = "__proto__"
            case dashed = "box-i"
            case spaced = "*/ \"q\""
        }
    }

    /// A dictionary whose schema the user wrote, with `propertyNames` of their own.
    struct LowercaseNamed: Decodable, Sendable, ContractDescribable {
        static var contractSchema: JSONSchema? {
            JSONSchema([
                "type": "object", "propertyNames": ["pattern": "^[a-z]+$"], "additionalProperties": ["type": "integer"],
            ])
        }
    }

    struct Tally: Event {
        static let channel: Channel = "tally"
        let lower: LowercaseNamed
        let byNumber: [Int: String]
    }

    struct Delete: Event {
        static let channel: Channel = "delete"
        let keys: Keys
    }

    struct Proto: Event {
        static let channel: Channel = "__proto__"
        let value: JSONValue
        let channels: Channels
    }

    struct Dashed: Event {
        static let channel: Channel = "my-channel"
        let v: Int
    }

    struct Camel: Event {
        static let channel: Channel = "myChannel"
        let v: Int
    }

    struct Digit: Event {
        static let channel: Channel = "0start"
        let v: Int
    }
}

@Suite struct TypeScriptNamingTests {
    @Test func namesTypeScriptWouldMisreadAreQuotedOrRenamed() {
        let script = Contract(types: [
            TypeScriptNames.Delete.self, TypeScriptNames.Proto.self, TypeScriptNames.Dashed.self,
            TypeScriptNames.Camel.self, TypeScriptNames.Digit.self,
        ]).typeScript
        // Property names: bare when an identifier (reserved words included), else a string literal.
        #expect(script.contains("  delete: { body: DeleteBody; reply: void };"))
        #expect(script.contains("  __proto__: { body: ProtoBody; reply: void };"))
        #expect(script.contains(#"  "my-channel": { body: "#))
        #expect(script.contains(#"  "0start": { body: T0startBody; reply: void };"#))
        #expect(script.contains(#"  "box-i": string;"#))
        #expect(script.contains(#"  "*/ \"q\"": boolean;"#))
        // "my-channel" and "myChannel" both PascalCase to MyChannel: two aliases, not one.
        #expect(script.contains("export type MyChannelBody = "))
        #expect(script.contains("export type MyChannelBody2 = "))
        // User types named like the declarations' own types are renamed, never shadowing them.
        #expect(script.contains("export interface JSONValue2 {"))
        #expect(script.contains("export interface Channels2 {"))
        #expect(script.contains("export type JSONValue = string | number"))
        #expect(script.contains("export interface Channels {\n"))
    }

    /// Only the deriver's own `propertyNames` (an `[Int: Value]`) means number keys.
    @Test func aUsersPropertyNamesKeepsStringKeys() {
        let script = Contract(types: [TypeScriptNames.Tally.self]).typeScript
        #expect(script.contains("{ [key: string]: number }"), "\(script)")
        #expect(!script.contains("{ [key: number]: number }"), "\(script)")
        #expect(script.contains("{ [key: number]: string }"), "\(script)")
    }
}
