/// A depth-first walk of a ``JSONValue`` that keeps its own stack instead of recursing, so a
/// value nested any number of levels deep (one a user built by hand in a loop, say) is walked
/// on the smallest thread stack. Writing, hashing and converting a value go through it.
///
/// The walk hands out events in document order: a container's opening, each member's key then
/// its value (or each element), and the container's end. Object members come in ascending
/// order of their keys when the walk was asked for that (writing, hashing), in the dictionary's
/// order otherwise.
struct JSONValueWalk {
    /// One step of the walk.
    enum Event {
        /// `null`, a Boolean, a number or a string.
        case scalar(JSONValue)
        /// An array with this many elements opens.
        case beginArray(count: Int)
        /// An object with this many members opens.
        case beginObject(count: Int)
        /// The key of the member whose value comes next.
        case key(String)
        /// The innermost open array ends.
        case endArray
        /// The innermost open object ends.
        case endObject
    }

    /// An open container: its children, their keys (an object's), and the next child's index.
    private struct Frame {
        var values: [JSONValue]
        var keys: [String]
        var isObject: Bool
        var next = 0
    }

    private var frames: [Frame] = []
    /// The value to open next (the root at first, then an object member after its key).
    private var pending: JSONValue?
    private let sortsKeys: Bool

    /// A walk of `root`.
    /// - Parameters:
    ///   - root: the value.
    ///   - sortsKeys: whether object members come in ascending order of their keys.
    init(_ root: JSONValue, sortsKeys: Bool) {
        pending = root
        self.sortsKeys = sortsKeys
    }

    /// The number of containers open (0 at the top level).
    var depth: Int { frames.count }

    /// The next event, or `nil` when the walk is over.
    mutating func next() -> Event? {
        if let value = pending {
            pending = nil
            return open(value)
        }
        let last = frames.count - 1
        guard last >= 0 else { return nil }
        let index = frames[last].next
        guard index < frames[last].values.count else {
            return frames.removeLast().isObject ? .endObject : .endArray
        }
        frames[last].next = index + 1
        if frames[last].isObject {
            pending = frames[last].values[index]
            return .key(frames[last].keys[index])
        }
        return open(frames[last].values[index])
    }

    private mutating func open(_ value: JSONValue) -> Event {
        switch value {
        case .array(let elements):
            frames.append(Frame(values: elements, keys: [], isObject: false))
            return .beginArray(count: elements.count)
        case .object(let members):
            var keys: [String] = []
            var values: [JSONValue] = []
            keys.reserveCapacity(members.count)
            values.reserveCapacity(members.count)
            let ordered = sortsKeys ? members.sorted { $0.key < $1.key } : Array(members)
            for (key, member) in ordered {
                keys.append(key)
                values.append(member)
            }
            frames.append(Frame(values: values, keys: keys, isObject: true))
            return .beginObject(count: members.count)
        default:
            return .scalar(value)
        }
    }

    /// Where the walk is: the keys and indices from the root to the last value or key handed
    /// out (for an error naming the value that failed).
    var path: [EncodingPathSegment] {
        var path: [EncodingPathSegment] = []
        path.reserveCapacity(frames.count)
        for frame in frames where frame.next > 0 {
            path.append(frame.isObject ? .key(frame.keys[frame.next - 1]) : .index(frame.next - 1))
        }
        return path
    }
}

extension JSONValue {
    /// Whether an object anywhere in this value (the value itself included) satisfies
    /// `predicate`. Looks with a stack of its own, not by recursion.
    package func containsObject(where predicate: ([String: JSONValue]) -> Bool) -> Bool {
        var pending = [self]
        while let value = pending.popLast() {
            switch value {
            case .object(let members):
                if predicate(members) { return true }
                pending.append(contentsOf: members.values)
            case .array(let elements):
                pending.append(contentsOf: elements)
            default:
                continue
            }
        }
        return false
    }
}
