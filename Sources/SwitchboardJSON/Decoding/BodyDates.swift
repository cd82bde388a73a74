import Foundation

/// ISO 8601 dates as the decoder reads and ``JSONValue`` writes them.
enum BodyDates {
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let whole = Date.ISO8601FormatStyle()

    /// A date from ISO 8601 text with or without fractional seconds
    /// (`2024-01-02T03:04:05Z`, `2024-01-02T03:04:05.250+01:00`).
    static func date(from string: String) -> Date? {
        if let date = try? Date(string, strategy: fractional) { return date }
        return try? Date(string, strategy: whole)
    }

    /// ISO 8601 text in UTC, with milliseconds only when the date has a fraction of a second.
    static func string(from date: Date) -> String {
        let interval = date.timeIntervalSinceReferenceDate
        return interval.rounded(.down) == interval ? whole.format(date) : fractional.format(date)
    }
}
