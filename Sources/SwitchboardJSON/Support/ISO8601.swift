import Foundation

/// ISO 8601 dates, the one place the codec reads and writes them: the decoder's `Date` and
/// ``JSONValue`` from a Foundation `Date`, the encoder's `Date`, and the wire's redaction.
///
/// Written in UTC without a formatter object, as JavaScript's `Date.prototype.toISOString()`
/// does: `2024-05-01T12:30:00Z`, or `…:00.250Z` when the date has milliseconds. Read as
/// `Date.ISO8601FormatStyle` reads, with or without fractional seconds, any offset.
package enum ISO8601 {
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let whole = Date.ISO8601FormatStyle()

    /// A date from ISO 8601 text with or without fractional seconds
    /// (`2024-01-02T03:04:05Z`, `2024-01-02T03:04:05.250+01:00`), or `nil`.
    package static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: fractional) { return date }
        return try? Date(text, strategy: whole)
    }

    /// Formats `date`, or `nil` outside JavaScript's date range (±8.64e15 ms around 1970).
    package static func format(_ date: Date) -> String? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return nil }
        let milliseconds = (seconds * 1000).rounded()
        guard abs(milliseconds) <= 8.64e15 else { return nil }
        let total = Int64(milliseconds)
        var days = total / 86_400_000
        var ofDay = total % 86_400_000
        if ofDay < 0 {
            ofDay += 86_400_000
            days -= 1
        }
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        var text = ""
        text.reserveCapacity(24)
        if year >= 0 && year <= 9999 {
            pad(year, 4, into: &text)
        } else {
            text += year < 0 ? "-" : "+"
            pad(abs(year), 6, into: &text)
        }
        text += "-"
        pad(month, 2, into: &text)
        text += "-"
        pad(day, 2, into: &text)
        text += "T"
        pad(ofDay / 3_600_000, 2, into: &text)
        text += ":"
        pad(ofDay / 60_000 % 60, 2, into: &text)
        text += ":"
        pad(ofDay / 1000 % 60, 2, into: &text)
        if ofDay % 1000 != 0 {
            text += "."
            pad(ofDay % 1000, 3, into: &text)
        }
        text += "Z"
        return text
    }

    private static func pad(_ value: Int64, _ width: Int, into text: inout String) {
        let digits = String(value)
        if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
        text += digits
    }
}
