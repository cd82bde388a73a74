/// Makes strings that a regular expression (the ECMA-262 subset JSON Schema patterns use)
/// matches: literals, `.`, classes and their ranges, `\d \w \s` and their negations, groups,
/// alternation, `? * + {n} {n,} {n,m}`; anchors and lookarounds match the empty string.
/// Unsupported syntax (a back-reference) makes text that may not match: callers check with
/// ``SchemaValidator``.
struct RegexSampler {
    /// One parsed piece of a pattern.
    indirect enum Node {
        /// One character out of these ranges (or, negated, out of none of them).
        case characters([ClosedRange<Unicode.Scalar>], negated: Bool)
        /// One of the alternatives, each a sequence.
        case alternatives([[Node]])
        /// The node repeated from `min` to `max` times (`nil`: unbounded).
        case repeated(Node, min: Int, max: Int?)
        /// Matches the empty string (an anchor, a lookaround).
        case empty
    }

    private let root: Node

    /// The longest text made.
    static let maxLength = 4096

    /// Parses `pattern`; `nil` when it is not one this sampler reads.
    init?(_ pattern: String) {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        guard let root = parser.alternatives(), parser.index == parser.scalars.count else { return nil }
        self.root = root
    }

    /// A string the pattern matches, choices made by `random`.
    func sample(_ random: inout SeededRandom) -> String {
        var text: [Unicode.Scalar] = []
        RegexSampler.emit(root, into: &text, random: &random, budget: 256)
        return String(String.UnicodeScalarView(text))
    }

    private static func emit(
        _ node: Node, into text: inout [Unicode.Scalar], random: inout SeededRandom, budget: Int
    ) {
        guard budget > 0 else { return }
        switch node {
        case .empty:
            break
        case .characters(let ranges, let negated):
            if negated {
                let printable = (0x21...0x7E).compactMap(Unicode.Scalar.init).filter { scalar in
                    !ranges.contains { $0.contains(scalar) }
                }
                if !printable.isEmpty { text.append(printable[random.below(printable.count)]) }
            } else if !ranges.isEmpty {
                let range = ranges[random.below(ranges.count)]
                let width = Int(range.upperBound.value - range.lowerBound.value) + 1
                let value = range.lowerBound.value + UInt32(random.below(width))
                if let scalar = Unicode.Scalar(value) { text.append(scalar) }
            }
        case .alternatives(let options):
            guard !options.isEmpty else { return }
            for part in options[random.below(options.count)] {
                emit(part, into: &text, random: &random, budget: budget - 1)
            }
        case .repeated(let part, let min, let max):
            let upper = Swift.min(max ?? (min + 3), min + 3)
            let count = min + random.below(upper - min + 1)
            // A long repetition (`{100000}`) is cut short: the text no longer matches, and the caller's check says so.
            for _ in 0..<count {
                if text.count >= RegexSampler.maxLength { break }
                emit(part, into: &text, random: &random, budget: budget - 1)
            }
        }
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func alternatives() -> Node? {
            var options: [[Node]] = []
            while true {
                guard let sequence = sequence() else { return nil }
                options.append(sequence)
                if current == "|" {
                    index += 1
                    continue
                }
                return .alternatives(options)
            }
        }

        private mutating func sequence() -> [Node]? {
            var nodes: [Node] = []
            while let scalar = current, scalar != "|", scalar != ")" {
                guard let atom = atom() else { return nil }
                nodes.append(quantified(atom))
            }
            return nodes
        }

        private mutating func quantified(_ atom: Node) -> Node {
            var node = atom
            guard let scalar = current else { return node }
            switch scalar {
            case "*": node = .repeated(atom, min: 0, max: nil)
            case "+": node = .repeated(atom, min: 1, max: nil)
            case "?": node = .repeated(atom, min: 0, max: 1)
            case "{":
                guard let (low, high, length) = braces() else { return node }
                index += length - 1
                node = .repeated(atom, min: low, max: high)
            default: return node
            }
            index += 1
            if current == "?" { index += 1 }  // lazy: the same strings
            return node
        }

        /// `{n}`, `{n,}`, `{n,m}` at the index: the bounds and the text's length.
        private func braces() -> (Int, Int?, Int)? {
            var end = index + 1
            while end < scalars.count, scalars[end] != "}" { end += 1 }
            guard end < scalars.count else { return nil }
            let inside = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
            let parts = inside.split(separator: ",", omittingEmptySubsequences: false)
            guard let low = Int(parts[0]) else { return nil }
            let high: Int?
            if parts.count == 1 {
                high = low
            } else if parts.count == 2 {
                high = parts[1].isEmpty ? nil : Int(parts[1])
                if !parts[1].isEmpty && high == nil { return nil }
            } else {
                return nil
            }
            // Bounds a hostile pattern may give (`{-1}`, `{9223372036854775807}`) are refused,
            // not counted with: no sample is made of them.
            guard low >= 0, low <= RegexSampler.maxLength, (high ?? low) >= low,
                (high ?? low) <= Int(Int32.max)
            else { return nil }
            return (low, high, end - index + 1)
        }

        private mutating func atom() -> Node? {
            guard let scalar = current else { return nil }
            index += 1
            switch scalar {
            case "^", "$":
                return .empty
            case ".":
                return .characters(["a"..."z", "A"..."Z", "0"..."9"], negated: false)
            case "(":
                var lookaround = false
                if current == "?" {
                    index += 1
                    if current == ":" {
                        index += 1
                    } else if current == "=" || current == "!" {
                        lookaround = true
                        index += 1
                    } else if current == "<" {
                        index += 1
                        if current == "=" || current == "!" {
                            lookaround = true
                            index += 1
                        } else {
                            while let next = current, next != ">" { index += 1 }
                            index += 1
                        }
                    }
                }
                guard let inner = alternatives(), current == ")" else { return nil }
                index += 1
                return lookaround ? .empty : inner
            case "[":
                return characterClass()
            case "\\":
                return escape(inClass: false).map { .characters($0.ranges, negated: $0.negated) }
            default:
                return .characters([scalar...scalar], negated: false)
            }
        }

        private mutating func characterClass() -> Node? {
            var negated = false
            if current == "^" {
                negated = true
                index += 1
            }
            var ranges: [ClosedRange<Unicode.Scalar>] = []
            var negatedParts = false
            while let scalar = current, scalar != "]" {
                index += 1
                var low = scalar
                if scalar == "\\" {
                    guard let escaped = escape(inClass: true) else { return nil }
                    if escaped.negated { negatedParts = true }
                    if escaped.ranges.count != 1 || escaped.ranges[0].lowerBound != escaped.ranges[0].upperBound {
                        ranges += escaped.ranges
                        continue
                    }
                    low = escaped.ranges[0].lowerBound
                }
                if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                    index += 1
                    guard var high = current else { return nil }
                    index += 1
                    if high == "\\" {
                        guard let escaped = escape(inClass: true), let first = escaped.ranges.first else { return nil }
                        high = first.lowerBound
                    }
                    guard low <= high else { return nil }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
            guard current == "]" else { return nil }
            index += 1
            // `[^\D]` and the like: not sampled exactly; the caller's check decides.
            if negatedParts { return .characters(["x"..."x"], negated: false) }
            return .characters(ranges, negated: negated)
        }

        /// The characters an escape (after its `\`) stands for.
        private mutating func escape(inClass: Bool) -> (ranges: [ClosedRange<Unicode.Scalar>], negated: Bool)? {
            guard let scalar = current else { return nil }
            index += 1
            switch scalar {
            case "d": return (["0"..."9"], false)
            case "D": return (["0"..."9"], true)
            case "w": return (["a"..."z", "A"..."Z", "0"..."9", "_"..."_"], false)
            case "W": return (["a"..."z", "A"..."Z", "0"..."9", "_"..."_"], true)
            case "s": return ([" "..." "], false)
            case "S": return ([" "..." "], true)
            case "n": return (["\n"..."\n"], false)
            case "t": return (["\t"..."\t"], false)
            case "r": return (["\r"..."\r"], false)
            case "b", "B": return inClass ? (["\u{8}"..."\u{8}"], false) : ([], false)
            case "u", "x":
                let digits = scalar == "u" ? 4 : 2
                guard index + digits <= scalars.count,
                    let value = UInt32(String(String.UnicodeScalarView(scalars[index..<(index + digits)])), radix: 16),
                    let character = Unicode.Scalar(value)
                else { return nil }
                index += digits
                return ([character...character], false)
            default:
                return ([scalar...scalar], false)
            }
        }
    }
}
