import Foundation
import Switchboard

/// The package's one strict scanner (read through `JSONReader`: a `JSONValue`
/// built from its tape) against `JSONSerialization` (what a WebKit host hands over).
///
/// - A rejection says where: its offset, line and column lie within the line.
/// - What the scanner accepts, `JSONSerialization` accepts, with the same
///   value (numbers compared by value: Foundation reads them as `Int`,
///   `Double` or `Decimal`), except a number beyond `Double`'s range
///   (`1e400`), which Foundation refuses.
/// - What the scanner rejects and `JSONSerialization` accepts is only the
///   documented leniency of Foundation (docs/wire-format.md, JSONDifferentialTests):
///   trailing commas, invalid UTF-8, lone surrogates, duplicate keys, a byte-order mark,
///   and UTF-16 or UTF-32 (NUL bytes among the first four).
struct ReaderAgreement {
    let bytes: [UInt8]
    let strict: Result<JSONValue, JSONReadError>
    /// What `JSONSerialization` read, if it accepted the line.
    let foundation: Any?
    /// Both accepted, and Foundation kept every number's exact value (so a
    /// decoder reading either tree must come to the same result).
    let foundationReadsExactly: Bool

    init(bytes: [UInt8], strict: Result<JSONValue, JSONReadError>) {
        self.bytes = bytes
        self.strict = strict
        foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        if case .success(let value) = strict, let foundation,
            let converted = try? JSONValue(foundation: foundation, maxDepth: 1_000_000)
        {
            foundationReadsExactly = ReaderAgreement.same(value, converted, exact: true)
        } else {
            foundationReadsExactly = false
        }
    }

    /// The kinds of strict rejection that Foundation is documented to accept.
    static func isDocumentedLeniency(_ kind: JSONReadError.Kind) -> Bool {
        switch kind {
        case .trailingComma, .invalidUTF8, .loneSurrogate, .duplicateKey, .byteOrderMark: return true
        default: return false
        }
    }

    func check() {
        // A rejection names a place in the line.
        if case .failure(let error) = strict {
            if error.offset < 0 || error.offset > bytes.count || error.line < 1 || error.column < 1
                || error.column > error.offset + 1 || error.reason.isEmpty
            {
                fuzzFail("the scanner's error \(error) names no place in the line", line: bytes)
            }
        }

        // JSONSerialization.
        switch (strict, foundation) {
        case (.success(let value), let foundation?):
            let converted: JSONValue
            do {
                converted = try JSONValue(foundation: foundation, maxDepth: 1_000_000)
            } catch {
                fuzzFail(
                    "the scanner read \(value); JSONSerialization's tree \(foundation) does not convert: \(error)",
                    line: bytes)
            }
            if !ReaderAgreement.same(value, converted, exact: false) {
                fuzzFail("the scanner read \(value), JSONSerialization \(converted)", line: bytes)
            }
        case (.success(let value), nil):
            // Foundation refuses a number beyond Double's range (`1e400`): valid JSON, documented.
            if !ReaderAgreement.containsNumberBeyondDouble(value) {
                fuzzFail("the scanner accepts (\(value)), JSONSerialization rejects", line: bytes)
            }
        case (.failure(let error), let foundation?):
            if !ReaderAgreement.isDocumentedLeniency(error.kind) && !foundationReadsAnotherEncoding {
                fuzzFail("the scanner rejects (\(error)), JSONSerialization accepts: \(foundation)", line: bytes)
            }
        case (.failure, nil):
            break
        }
    }

    /// Foundation reads UTF-16 and UTF-32 too, detected from NUL bytes among the
    /// first four (RFC 4627, section 3), and drops a last incomplete code unit:
    /// `31 00 00 00 07 34 26` reads as UTF-32LE `1`, `00 30 5D` as UTF-16BE `0`.
    /// The strict readers take UTF-8 only (RFC 8259), where a raw NUL is never valid.
    var foundationReadsAnotherEncoding: Bool {
        bytes.prefix(4).contains(0)
    }

    /// Whether a number in `value` is beyond `Double`'s range (its `Double` is infinite).
    static func containsNumberBeyondDouble(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let number): return Double(number.text).map { !$0.isFinite } ?? true
        case .array(let elements): return elements.contains(where: containsNumberBeyondDouble)
        case .object(let members): return members.values.contains(where: containsNumberBeyondDouble)
        default: return false
        }
    }

    /// Whether two values are the same JSON: strings scalar for scalar, object
    /// keys likewise; numbers by value (`exact`: the same decimal value, as far as
    /// `Decimal` tells; otherwise also the same `Double`). Not `exact`, strings
    /// and keys are compared without a leading U+FEFF: Foundation drops a raw one
    /// (NSString takes it for a byte-order mark) and keeps an escaped `\ufeff`.
    static func same(_ a: JSONValue, _ b: JSONValue, exact: Bool) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return scalars(x, exact: exact) == scalars(y, exact: exact)
        case (.number(let x), .number(let y)): return sameNumber(x.text, y.text, exact: exact)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1, exact: exact) }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            let others = Dictionary(
                y.map { (scalars($0.key, exact: exact), $0.value) }, uniquingKeysWith: { a, _ in a })
            let mine = Set(x.keys.map { scalars($0, exact: exact) })
            // Keys that differ only by a leading U+FEFF (`"\ufeffa"` and `"a"`) collide once
            // it is dropped; which value Foundation kept for them is not compared.
            if others.count != y.count || mine.count != x.count { return mine == Set(others.keys) }
            for (key, value) in x {
                guard let other = others[scalars(key, exact: exact)], same(value, other, exact: exact) else {
                    return false
                }
            }
            return true
        default: return false
        }
    }

    /// The string's scalars; not `exact`, without a leading U+FEFF.
    static func scalars(_ text: String, exact: Bool) -> [Unicode.Scalar] {
        var scalars = Array(text.unicodeScalars)
        if !exact, scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        return scalars
    }

    static func sameNumber(_ x: String, _ y: String, exact: Bool) -> Bool {
        if x == y { return true }
        // Decimal keeps 38 digits; beyond about 34 it may round both to the same value.
        if significantDigits(x) <= 34, significantDigits(y) <= 34, let a = Decimal(string: x),
            let b = Decimal(string: y),
            !a.isNaN, !b.isNaN, a == b
        {
            return true
        }
        if exact { return false }
        guard let a = Double(x), let b = Double(y) else { return false }
        return a == b
    }

    static func significantDigits(_ text: String) -> Int {
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
        return digits.count
    }
}
