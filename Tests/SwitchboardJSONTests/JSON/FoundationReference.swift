import Foundation

@testable import SwitchboardJSON

/// `JSONSerialization` as the reference for the strict scanner, as SwitchboardFuzzMessages uses it
/// (docs/reliability.md): what the scanner accepts, Foundation accepts too, with the same value
/// (numbers by value), except a number beyond `Double`'s range (`1e400`), which Foundation refuses;
/// what the scanner rejects and Foundation accepts is only Foundation's documented leniency
/// (trailing commas, invalid UTF-8, lone surrogates, duplicate keys, a byte-order mark, and
/// UTF-16 or UTF-32 text, which it detects from NUL bytes among the first four).
enum FoundationReference {
    /// How the scanner's `result` for `bytes` disagrees with `JSONSerialization`, or `nil` when it agrees.
    static func disagreement(_ bytes: [UInt8], _ result: Result<JSONValue, JSONReadError>) -> String? {
        let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        switch (result, foundation) {
        case (.success(let value), let foundation?):
            // Foundation on Linux drops a raw U+FEFF from strings: no value to compare then.
            guard bytes.firstRange(of: [0xEF, 0xBB, 0xBF]) == nil else { return nil }
            guard let expected = NormalizedJSON(foundation: foundation) else {
                return "JSONSerialization read \(foundation), which has no JSON shape"
            }
            return NormalizedJSON(value) == expected ? nil : "ours \(NormalizedJSON(value)), Foundation's \(expected)"
        case (.success(let value), nil):
            return holdsNumberBeyondDouble(value) ? nil : "ours accepts \(NormalizedJSON(value)), Foundation rejects"
        case (.failure(let error), let foundation?):
            return isDocumentedLeniency(error.kind) || bytes.prefix(4).contains(0)
                ? nil : "ours rejects (\(error)), Foundation reads \(foundation)"
        case (.failure, nil):
            return nil
        }
    }

    /// The kinds of strict rejection that `JSONSerialization` is documented to accept.
    static func isDocumentedLeniency(_ kind: JSONReadError.Kind) -> Bool {
        switch kind {
        case .trailingComma, .invalidUTF8, .loneSurrogate, .duplicateKey, .byteOrderMark: return true
        default: return false
        }
    }

    /// Whether a number in `value` is beyond `Double`'s range (its `Double` is infinite).
    static func holdsNumberBeyondDouble(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let number): return Double(number.text).map { !$0.isFinite } ?? true
        case .array(let elements): return elements.contains(where: holdsNumberBeyondDouble)
        case .object(let members): return members.values.contains(where: holdsNumberBeyondDouble)
        default: return false
        }
    }
}
