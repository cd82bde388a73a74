/// A version as Semantic Versioning 2.0.0 writes it (`1.4.0`, `2.0.0-beta.2`, `1.0.0+build.5`),
/// ordered by its precedence: numbers compared as numbers, a pre-release before its release,
/// build metadata ignored.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major number: a release that breaks its users raises it.
    public let major: Int
    /// The minor number.
    public let minor: Int
    /// The patch number.
    public let patch: Int
    /// The pre-release identifiers (`["beta", "2"]`), empty for a release.
    public let preRelease: [String]
    /// The text the version was read from.
    public let description: String

    /// Reads a version; `nil` when `text` is not one.
    /// - Parameter text: `MAJOR.MINOR.PATCH`, optionally `-PRERELEASE` and `+BUILD`.
    public init?(_ text: String) {
        let withoutBuild = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        guard let main = withoutBuild.first else { return nil }
        let parts = main.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let numbers = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
                text == "0" || !text.hasPrefix("0")
            else { return nil }
            return Int(text)
        }
        guard numbers.count == 3, let major = number(numbers[0]), let minor = number(numbers[1]),
            let patch = number(numbers[2])
        else { return nil }
        var preRelease: [String] = []
        if parts.count == 2 {
            preRelease = parts[1].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-")
            guard preRelease.allSatisfy({ !$0.isEmpty && $0.allSatisfy(allowed.contains) }) else { return nil }
        }
        if withoutBuild.count == 2 && withoutBuild[1].isEmpty { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        self.preRelease = preRelease
        self.description = text
    }

    /// Whether `lhs` comes before `rhs` in precedence.
    /// - Parameters:
    ///   - lhs: a version.
    ///   - rhs: another version.
    /// - Returns: whether `lhs` is older.
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        if lhs.preRelease.isEmpty || rhs.preRelease.isEmpty { return !lhs.preRelease.isEmpty && rhs.preRelease.isEmpty }
        for (left, right) in zip(lhs.preRelease, rhs.preRelease) where left != right {
            switch (Int(left), Int(right)) {
            case (let first?, let second?): return first < second
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return left < right
            }
        }
        return lhs.preRelease.count < rhs.preRelease.count
    }

    /// Equal precedence (build metadata ignored).
    /// - Parameters:
    ///   - lhs: a version.
    ///   - rhs: another version.
    /// - Returns: whether they have the same precedence.
    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) == (rhs.major, rhs.minor, rhs.patch) && lhs.preRelease == rhs.preRelease
    }

    /// Hashes what precedence compares.
    /// - Parameter hasher: the hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        hasher.combine(preRelease)
    }
}
