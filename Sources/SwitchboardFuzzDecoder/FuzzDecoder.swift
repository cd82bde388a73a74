import Foundation
import Switchboard

// libFuzzer entry point for the body decoder.
//
// The input is a little program (see `TreeBuilder`) that builds a loosely typed
// body, the kind `JSONSerialization` or `WKScriptMessage.body` hands over. The
// body is decoded as several commerce-like types, as `JSONValue` and through a
// walker that uses every container API, strictly and leniently, with a depth
// limit taken from the input. Whatever decodes is round-tripped through
// `BodyEncoder` (to a Foundation tree, and to bytes read back by the strict
// `JSONReader`) and must decode to the same value. The three sources of the one
// decoder (the Foundation tree, its `JSONValue`, and the JSON bytes of that value)
// must give the same value or the same error.
//
// Nothing here may crash on any input; a broken property is reported and the
// process aborts, which is how libFuzzer learns about it.
//
// Build and run (see .ci/fuzz):
//   swift build --sanitize=fuzzer --sanitize=address --product SwitchboardFuzzDecoder --scratch-path .build-fuzz
//   .build-fuzz/debug/SwitchboardFuzzDecoder -max_total_time=60 corpus/

/// The entry point of a plain build (`swift build`), which links the target as an
/// ordinary executable whose `main` is `<module>_main`; it only says what this is.
/// Under `--sanitize=fuzzer`, libFuzzer's own `main` runs instead.
@_cdecl("SwitchboardFuzzDecoder_main")
public func switchboardFuzzDecoderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
    -> CInt
{
    FileHandle.standardError.write(
        Data(
            "SwitchboardFuzzDecoder is a libFuzzer target; build and run it with .ci/fuzz (docs/reliability.md)\n".utf8)
    )
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func switchboardFuzzDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var builder = TreeBuilder(bytes)
    let settings = builder.cursor.byte()
    let tree = builder.value()
    let maxDepth = settings & 0x80 == 0 ? DecodingOptions.defaultMaxDepth : 1 + Int(settings & 0x3F)
    let strict = DecodingOptions(lenient: false, maxDepth: maxDepth)
    let lenient = DecodingOptions(lenient: true, maxDepth: maxDepth)
    let atKey = settings & 0x40 == 0 ? nil : TreeBuilder.keys[Int(builder.cursor.byte()) % TreeBuilder.keys.count]

    let context = FuzzContext(tree: tree, key: atKey, strict: strict, lenient: lenient)
    context.equatable(FuzzAddCartLine.self, encodesAlways: true)
    context.equatable(FuzzRemoveCartLine.self, encodesAlways: true)
    context.equatable(FuzzOffer.self, encodesAlways: true)
    context.equatable(FuzzProductCartUpdate.self, encodesAlways: true)
    context.equatable(FuzzCart.self, encodesAlways: true)
    context.equatable(FuzzWishlistID.self, encodesAlways: true)
    context.equatable(FuzzWishlistUpdate.self, encodesAlways: false)
    context.equatable(FuzzNumbers.self, encodesAlways: false)
    context.equatable(FuzzMisc.self, encodesAlways: false)
    context.equatable([FuzzOffer].self, encodesAlways: true)
    context.equatable([String: Int].self, encodesAlways: true)
    context.equatable(Int.self, encodesAlways: true)
    context.equatable(UInt8.self, encodesAlways: true)
    context.equatable(Double.self, encodesAlways: false)
    context.equatable(Decimal.self, encodesAlways: false)
    context.equatable(Bool.self, encodesAlways: true)
    context.equatable(String.self, encodesAlways: true)
    context.equatable(Int?.self, encodesAlways: true)
    context.decodes(FuzzDated.self)
    context.jsonValue()
    context.walker()
    return 0
}

/// Reports a broken property and stops the process, so libFuzzer keeps the input.
func fuzzFail(_ message: @autoclosure () -> String, tree: Any) -> Never {
    FileHandle.standardError.write(Data("SwitchboardFuzzDecoder: property broken: \(message())\ntree: \(tree)\n".utf8))
    abort()
}

struct FuzzContext {
    let tree: Any
    let key: String?
    let strict: DecodingOptions
    let lenient: DecodingOptions

    /// Decodes `tree` (or its value at `key`), also through `MessageBody`, and
    /// checks that the two agree and that errors render.
    func decode<T: Decodable>(_ type: T.Type, options: DecodingOptions) -> T? {
        let decoder = BodyDecoder(options: options)
        let body = MessageBody(tree)
        do {
            let direct: T
            let viaBody: T
            if let key {
                direct = try decoder.decode(type, from: tree, at: key)
                viaBody = try body.decode(type, at: key, options: options)
            } else {
                direct = try decoder.decode(type, from: tree)
                viaBody = try body.decode(type, options: options)
            }
            _ = viaBody
            return direct
        } catch {
            let rendered = error.description
            if !error.path.hasPrefix("body") {
                fuzzFail("\(T.self): error path \(error.path) does not start at body", tree: tree)
            }
            if rendered.isEmpty || error.message.isEmpty {
                fuzzFail("\(T.self): empty error text", tree: tree)
            }
            return nil
        }
    }

    /// Decodes `tree` from a ``JSONValue`` (what the CLI path decodes from).
    func decode<T: Decodable>(_ type: T.Type, fromJSON value: JSONValue, options: DecodingOptions)
        -> Result<T, BodyDecodingError>
    {
        let decoder = BodyDecoder(options: options)
        do {
            if let key {
                return .success(try decoder.decode(type, from: value, at: key))
            }
            return .success(try decoder.decode(type, from: value))
        } catch {
            _ = error.description
            return .failure(error)
        }
    }

    /// Strict and lenient decoding; the round trips of what decodes.
    /// - Parameter encodesAlways: whether every value of the type must encode
    ///   (no Float, Double or Decimal inside, which may be non-finite).
    func equatable<T: Codable & Equatable>(_ type: T.Type, encodesAlways: Bool) {
        let strictValue = decode(type, options: strict)
        let lenientValue = decode(type, options: lenient)
        if let strictValue {
            guard let lenientValue else {
                fuzzFail("\(T.self): decodes strictly but not leniently", tree: tree)
            }
            if lenientValue != strictValue && !containsNaN(strictValue) {
                fuzzFail("\(T.self): lenient \(lenientValue) differs from strict \(strictValue)", tree: tree)
            }
        }
        for (value, options) in [(strictValue, strict), (lenientValue, lenient)] {
            guard let value else { continue }
            roundTrip(value, options: options, encodesAlways: encodesAlways)
        }
    }

    /// Only decoding and re-encoding; no comparison.
    func decodes<T: Codable>(_ type: T.Type) {
        for options in [strict, lenient] {
            guard let value = decode(type, options: options) else { continue }
            if let object = try? BodyEncoder().encodeFoundationObject(value) {
                _ = try? BodyDecoder(options: options).decode(type, from: object)
            }
            if let bytes = try? BodyEncoder().encodeJSON(value) {
                readBack(bytes, what: "\(T.self)")
            }
        }
    }

    func roundTrip<T: Codable & Equatable>(_ value: T, options: DecodingOptions, encodesAlways: Bool) {
        let encoder = BodyEncoder()
        let depthOK = options.maxDepth >= 8
        // Through a Foundation tree, as a reply travels to WebKit.
        do {
            let object = try encoder.encodeFoundationObject(value)
            if depthOK {
                do {
                    let again = try BodyDecoder(options: options).decode(T.self, from: object)
                    if again != value && !containsNaN(value) {
                        fuzzFail("\(T.self): \(value) came back from a Foundation tree as \(again)", tree: tree)
                    }
                } catch {
                    fuzzFail("\(T.self): \(value) encoded to \(object), which does not decode: \(error)", tree: tree)
                }
            }
        } catch {
            if encodesAlways { fuzzFail("\(T.self): \(value) does not encode: \(error)", tree: tree) }
        }
        // Through bytes, as a reply travels to the CLI's output.
        do {
            let bytes = try encoder.encodeJSON(value)
            guard let json = readBack(bytes, what: "\(T.self)") else { return }
            if depthOK {
                do {
                    let again = try BodyDecoder(options: options).decode(T.self, from: json)
                    if again != value && !containsNaN(value) {
                        fuzzFail("\(T.self): \(value) came back from JSON bytes as \(again)", tree: tree)
                    }
                } catch {
                    let text = String(decoding: bytes, as: UTF8.self)
                    fuzzFail("\(T.self): \(value) encoded to \(text), which does not decode: \(error)", tree: tree)
                }
            }
        } catch {
            if encodesAlways { fuzzFail("\(T.self): \(value) does not encode to bytes: \(error)", tree: tree) }
        }
    }

    /// The encoder's bytes must always be JSON the strict reader accepts.
    @discardableResult
    func readBack(_ bytes: [UInt8], what: String) -> JSONValue? {
        do {
            return try JSONReader(maxDepth: 1_000_000).read(bytes)
        } catch {
            let text = String(decoding: bytes, as: UTF8.self)
            fuzzFail("\(what): the encoder wrote \(text), which the strict reader rejects: \(error)", tree: tree)
        }
    }

    /// `JSONValue`: decodes the same from the tree and from its own encodings.
    func jsonValue() {
        for options in [strict, lenient] {
            guard let value = decode(JSONValue.self, options: options) else { continue }
            let encoder = BodyEncoder()
            guard let bytes = try? encoder.encodeJSON(value) else {
                fuzzFail("JSONValue \(value) does not encode", tree: tree)
            }
            guard let read = readBack(bytes, what: "JSONValue") else { return }
            if read != value {
                fuzzFail("JSONValue \(value) was written and read back as \(read)", tree: tree)
            }
            if let encoded = try? encoder.encodeJSONValue(value), encoded != value {
                fuzzFail("JSONValue \(value) encodes to the JSONValue \(encoded)", tree: tree)
            }
            if let object = try? encoder.encodeFoundationObject(value), options.maxDepth >= 8 {
                if let again = try? BodyDecoder(options: options).decode(JSONValue.self, from: object),
                    WalkerShape.of(again) != WalkerShape.of(value)
                {
                    fuzzFail("JSONValue \(value) came back from a Foundation tree as \(again)", tree: tree)
                }
            }
        }
        // The typed decoders must agree whether they read the tree or its JSONValue
        // (the whole tree's: `key`, if any, applies to both).
        if let whole = try? BodyDecoder(options: strict).decode(JSONValue.self, from: tree) {
            agree(FuzzAddCartLine.self, json: whole)
            agree(FuzzOffer.self, json: whole)
            agree(FuzzWishlistUpdate.self, json: whole)
            agree(FuzzNumbers.self, json: whole)
            agree(FuzzMisc.self, json: whole)
        }
    }

    /// A type decoded from the tree and from the tree's `JSONValue` gives the same result.
    func agree<T: Codable & Equatable>(_ type: T.Type, json: JSONValue) {
        let fromTree = decode(type, options: strict)
        let fromJSON = decode(type, fromJSON: json, options: strict)
        let at = key.map { " at \($0)" } ?? ""
        switch (fromTree, fromJSON) {
        case (nil, .failure): return
        case (let a?, .success(let b)):
            if a != b && !containsNaN(a) {
                fuzzFail("\(T.self)\(at): the tree decodes as \(a), its JSONValue \(json) as \(b)", tree: tree)
            }
        case (let a?, .failure(let error)):
            fuzzFail("\(T.self)\(at): the tree decodes as \(a), its JSONValue \(json) does not: \(error)", tree: tree)
        case (nil, .success(let b)):
            // A date or URL object is not a string (docs/decoding.md), though its JSONValue is
            // one: the tree must then fail on exactly that, and nothing else may differ.
            if !failsOnDateOrURL(type) {
                fuzzFail("\(T.self)\(at): the tree does not decode, its JSONValue \(json) decodes as \(b)", tree: tree)
            }
        }
        // The third source, JSON bytes (the CLI's and `MessageBody(jsonBytes:)`'s): the same value or the same error.
        var writer = JSONWriter()
        writer.write(json)
        guard let body = try? MessageBody(jsonBytes: writer.bytes, maxDepth: 1_000_000, maxBytes: .max) else {
            fuzzFail("\(T.self): the bytes of \(json) do not read back", tree: tree)
        }
        let fromBytes = Result { () throws(BodyDecodingError) -> T in
            if let key { return try body.decode(T.self, at: key, options: strict) }
            return try body.decode(T.self, options: strict)
        }
        switch (fromJSON, fromBytes) {
        case (.success(let a), .success(let b)):
            if a != b && !containsNaN(a) {
                fuzzFail("\(T.self)\(at): the JSONValue decodes as \(a), its bytes as \(b)", tree: tree)
            }
        case (.failure(let a), .failure(let b)):
            if a.description != b.description {
                fuzzFail("\(T.self)\(at): the JSONValue fails with \(a), its bytes with \(b)", tree: tree)
            }
        default:
            fuzzFail("\(T.self)\(at): the JSONValue gives \(fromJSON), its bytes \(fromBytes)", tree: tree)
        }
    }

    /// Whether decoding the tree strictly fails with a type mismatch that found a date or
    /// URL object (which a tree may hold and JSON may not: its `JSONValue` holds the string).
    func failsOnDateOrURL<T: Decodable>(_ type: T.Type) -> Bool {
        let decoder = BodyDecoder(options: strict)
        do {
            if let key {
                _ = try decoder.decode(type, from: tree, at: key)
            } else {
                _ = try decoder.decode(type, from: tree)
            }
            return false
        } catch {
            guard case .typeMismatch = error.decodingError else { return false }
            return error.message.hasSuffix("but found a date instead.")
                || error.message.hasSuffix("but found a URL instead.")
        }
    }

    /// The walker sees the same shape as `JSONValue` (strict mode: lenient reads "1" as a Bool or number).
    func walker() {
        let walked = decode(FuzzWalker.self, options: strict)
        let value = decode(JSONValue.self, options: strict)
        if let walked, let value, walked.shape != FuzzWalker.shape(of: value) {
            fuzzFail("walker saw \(walked.shape), JSONValue is \(FuzzWalker.shape(of: value))", tree: tree)
        }
        _ = decode(FuzzWalker.self, options: lenient)
    }

    /// Whether a value holds a NaN somewhere (NaN is not equal to itself).
    func containsNaN(_ value: Any) -> Bool {
        switch value {
        case let double as Double: return double.isNaN
        case let float as Float: return float.isNaN
        case let decimal as Decimal: return decimal.isNaN
        default: return Mirror(reflecting: value).children.contains { containsNaN($0.value) }
        }
    }
}

/// The shape of a JSON value with numbers compared by value, not text
/// (`1` and `1.0` may differ in text after a trip through a Foundation tree).
enum WalkerShape {
    static func of(_ value: JSONValue) -> String {
        switch value {
        case .number(let number): return "n(\(Decimal(string: number.text).map { "\($0)" } ?? number.text))"
        case .string(let string): return "s(\(string.unicodeScalars.map { String($0.value) }.joined(separator: ".")))"
        case .bool(let bool): return "b(\(bool))"
        case .null: return "z"
        case .array(let elements): return "[" + elements.map(of).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "\($0.key):\(of($0.value))" }.joined(separator: ",")
                + "}"
        }
    }
}
