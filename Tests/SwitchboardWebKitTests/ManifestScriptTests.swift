import Foundation
import Switchboard
import Testing

@Suite struct ManifestScriptTests {
    @Test func theScriptPublishesTheManifestUnderTheGlobalAndDispatchesAnEvent() {
        let manifest = Manifest(channels: ["addCartLine", "sdkReady"], features: ["freeProductRewards": false])
        let script = ManifestScript.source(for: manifest)
        #expect(embeddedManifest(in: script) == manifest)
        #expect(script.contains(#"window["switchboard"] = window["switchboard"] || {}"#))
        #expect(script.contains(#"new CustomEvent("switchboard:manifest", { detail: manifest })"#))
    }

    @Test func hostileNamesCannotBreakOutOfTheScript() throws {
        let evil = try Channel(validating: "x</script><script>alert(1)</script>\u{2028}\u{2029}&<!--")
        let manifest = Manifest(channels: [evil], features: ["</SCRIPT>\u{2028}\"'\\": true])
        let script = ManifestScript.source(for: manifest, globalName: "sb\"];alert(1);//</script>")

        #expect(!script.lowercased().contains("</script"))
        #expect(!script.contains("<!--"))
        #expect(!script.contains("\u{2028}"))
        #expect(!script.contains("\u{2029}"))
        // The global's name stays inside a string literal.
        #expect(script.contains(#"window["sb\"];alert(1);//\u003c/script\u003e"] = "#))
        #expect(script.contains(#"\u003c/script\u003e"#))
        #expect(script.contains(#"\u2028"#))
        // The escapes are JSON escapes: the manifest reads back exactly.
        #expect(embeddedManifest(in: script) == manifest)
    }

    @Test func escapingLeavesJSONStructureAlone() {
        #expect(ManifestScript.escapeForScript(#"{"a":["<b>&"]}"#) == #"{"a":["\u003cb\u003e\u0026"]}"#)
    }
}
