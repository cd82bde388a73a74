import Foundation
import Testing

extension CLIEndToEnd {
    /// `--allow-origin` and `--allow-subframes` through the built binary.
    @Suite struct CLIOriginTests {
        static let shop = "https://shop.example.com"

        func lines(_ messages: [String]) -> Data {
            Data((messages.joined(separator: "\n") + "\n").utf8)
        }

        @Test func withoutAPolicyOriginFieldsChangeNothing() async throws {
            let input = lines([
                #"{"name":"sdkReady","origin":"https://evil.example","mainFrame":false}"#,
                #"{"name":"sdkReady","origin":"null"}"#,
            ])
            let run = try await CLI.run(["--quiet"], stdin: input)
            #expect(outcomes(run) == ["handled", "handled"])
            #expect(run.status == 0)
        }

        @Test func aPolicyAdmitsTheAllowedMainFrameAndRejectsTheRest() async throws {
            let input = lines([
                #"{"name":"sdkReady","id":"a","origin":"https://shop.example.com","mainFrame":true}"#,
                #"{"name":"sdkReady","id":"b","origin":"https://shop.example.com.evil.net","mainFrame":true}"#,
                #"{"name":"sdkReady","id":"c","origin":"https://shop.example.com","mainFrame":false}"#,
                #"{"name":"sdkReady","id":"d","origin":"https://shop.example.com"}"#,
                #"{"name":"sdkReady","id":"e","mainFrame":true}"#,
                #"{"name":"sdkReady","id":"f","origin":"https://a.cdn.example.net","mainFrame":true}"#,
            ])
            let run = try await CLI.run(
                ["--allow-origin", Self.shop, "--allow-origin=https://*.cdn.example.net"], stdin: input)
            #expect(outcomes(run) == ["handled", "rejected", "rejected", "rejected", "rejected", "handled"])
            #expect(run.status == 1)
            let rejected = object(run.outputLines[1])
            #expect(Array(rejected.keys).sorted() == ["error", "id", "line", "name", "outcome"])
            #expect(rejected["id"] as? String == "b")
            #expect(rejected["name"] as? String == "sdkReady")
            let message = (rejected["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasPrefix("sdkReady: rejected: origin https://shop.example.com.evil.net is not allowed"))
            #expect(
                run.outputLines[1].hasPrefix(
                    #"{"line":2,"id":"b","name":"sdkReady","outcome":"rejected","error":{"kind":"rejected","channel":"sdkReady","message":"#
                ))
            #expect(
                run.errors.contains(
                    "6 messages: 2 handled, 0 replied, 0 failed, 0 invalid, 0 unhandled, 0 malformed, 4 rejected ("))
        }

        @Test func aLongHostileOriginIsRejectedForWhatFollowsItsFirst200Characters() async throws {
            let host = String(repeating: String(repeating: "a", count: 62) + ".", count: 3) + "bbb"
            let input = lines([#"{"name":"sdkReady","origin":"https://"# + host + #"@evil.com","mainFrame":true}"#])
            let run = try await CLI.run(["--quiet", "--allow-origin", "https://a.com"], stdin: input)
            #expect(outcomes(run) == ["rejected"])
            #expect(run.outputLines.first?.contains("userinfo") == true, "\(run.outputLines)")
            #expect(run.outputLines.first?.contains("it parses now") == false)
        }

        @Test func withAPolicyTheSummaryCountsRejectedEvenWhenNoneWas() async throws {
            let input = lines([#"{"name":"sdkReady","origin":"https://shop.example.com","mainFrame":true}"#])
            let run = try await CLI.run(["--allow-origin", Self.shop], stdin: input)
            #expect(run.status == 0)
            #expect(
                run.errors.contains(
                    "1 message: 1 handled, 0 replied, 0 failed, 0 invalid, 0 unhandled, 0 malformed, 0 rejected ("),
                "\(run.errors)")
            let plain = try await CLI.run([], stdin: input)
            #expect(
                plain.errors.contains(
                    "1 message: 1 handled, 0 replied, 0 failed, 0 invalid, 0 unhandled, 0 malformed ("),
                "\(plain.errors)")
        }

        @Test func allowSubframesLetsSubframeMessagesIn() async throws {
            let input = lines([
                #"{"name":"sdkReady","origin":"https://shop.example.com","mainFrame":false}"#,
                #"{"name":"sdkReady","origin":"https://shop.example.com"}"#,
            ])
            let run = try await CLI.run(["--quiet", "--allow-origin", Self.shop, "--allow-subframes"], stdin: input)
            #expect(outcomes(run) == ["handled", "rejected"], "an unknown frame is still refused")
        }

        @Test func wrongTypesAreMalformedWithAClearMessage() async throws {
            let input = lines([
                #"{"name":"sdkReady","origin":1,"mainFrame":true}"#,
                #"{"name":"sdkReady","origin":"https://shop.example.com","mainFrame":"yes"}"#,
            ])
            let run = try await CLI.run(["--quiet", "--allow-origin", Self.shop], stdin: input)
            #expect(outcomes(run) == ["malformed", "malformed"])
            #expect(run.output.contains(#""origin\" must be a string"#))
            #expect(run.output.contains(#""mainFrame\" must be a boolean, found a string"#))
        }

        @Test(arguments: [
            "https://shop.example.com/", "https://shop.example.com.", "shop.example.com", "https://*.com",
            "https://a.*.example.com", "*://shop.example.com", "https://shop.example.com:*", "null",
            "https://user@shop.example.com", "https://*", "https://shop.example.com:0", " https://shop.example.com", "",
            "https://shop%2Eexample.com", "https://*example.com",
        ])
        func aBadPatternIsAUsageError(_ pattern: String) async throws {
            let run = try await CLI.run(["--allow-origin", pattern], stdin: Data())
            #expect(run.status == 2)
            #expect(run.errors.hasPrefix("\(CLI.name): --allow-origin: "))
            #expect(run.errors.contains("is not an origin"))
            #expect(run.errors.contains("USAGE: \(CLI.name)"))
            #expect(run.output.isEmpty)
        }

        @Test func aMissingPatternIsAUsageError() async throws {
            let run = try await CLI.run(["--allow-origin"], stdin: Data())
            #expect(run.status == 2)
            #expect(run.errors.contains("--allow-origin needs a value"))
        }

        @Test func theHelpNamesTheOptions() async throws {
            let run = try await CLI.run(["--help"])
            #expect(run.output.contains("--allow-origin PATTERN"))
            #expect(run.output.contains("--allow-subframes"))
            #expect(run.output.contains("rejected"))
        }
    }
}
