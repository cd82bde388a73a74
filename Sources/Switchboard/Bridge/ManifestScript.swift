import Foundation

/// Builds the page user script that publishes a router's ``Manifest`` to the web side.
///
/// The script sets `window[globalName].manifest` to the manifest object
/// (`{"channels": [...], "features": {...}, "contract": "sha256:…"}`) and dispatches a
/// `CustomEvent` named `"<globalName>:manifest"` on `window` with the manifest as
/// its `detail`, so a web SDK can read what is live at load time and follow changes:
/// ```js
/// const live = window.switchboard?.manifest?.features?.freeProductRewards === true;
/// window.addEventListener("switchboard:manifest", (e) => update(e.detail));
/// const sameContract = window.switchboard?.manifest?.contract === contract; // from the generated declarations
/// ```
package enum ManifestScript {
    /// The JavaScript source that publishes `manifest` under `window[globalName]`.
    ///
    /// Every value is embedded as JSON made safe inside JavaScript and HTML:
    /// `<`, `>` and `&` are written as `\u003c`, `\u003e`, `\u0026` (so no
    /// `</script>` or `<!--` can appear), and U+2028 / U+2029 as `\u2028` /
    /// `\u2029` (line terminators in older JavaScript). The global's name is
    /// embedded the same way, as a string, so any name is safe.
    /// - Parameters:
    ///   - manifest: the manifest to publish.
    ///   - globalName: the property of `window` that holds the Switchboard object.
    /// - Returns: the script source.
    package static func source(for manifest: Manifest, globalName: String = "switchboard") -> String {
        let json = safeJSON(manifest) ?? #"{"channels":[],"features":{}}"#
        let name = safeJSON(globalName) ?? #""switchboard""#
        let event = safeJSON(globalName + ":manifest") ?? #""switchboard:manifest""#
        return """
            (function () {
              var manifest = \(json);
              var root = window[\(name)] = window[\(name)] || {};
              root.manifest = manifest;
              try { window.dispatchEvent(new CustomEvent(\(event), { detail: manifest })); } catch (e) {}
            })();
            """
    }

    /// `value` as JSON text with the characters that are unsafe inside a script escaped.
    static func safeJSON(_ value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return nil }
        return escapeForScript(String(decoding: data, as: UTF8.self))
    }

    /// Escapes `<`, `>`, `&`, U+2028 and U+2029 in JSON text. These characters
    /// only occur inside JSON strings, where the `\uXXXX` form means the same.
    package static func escapeForScript(_ json: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": out.append(contentsOf: #"\u003c"#.unicodeScalars)
            case ">": out.append(contentsOf: #"\u003e"#.unicodeScalars)
            case "&": out.append(contentsOf: #"\u0026"#.unicodeScalars)
            case "\u{2028}": out.append(contentsOf: #"\u2028"#.unicodeScalars)
            case "\u{2029}": out.append(contentsOf: #"\u2029"#.unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
