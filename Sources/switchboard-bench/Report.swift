import Foundation

/// The one table the benchmark prints, as Markdown (it pastes into docs/benchmarks.md).
struct Report {
    struct Row {
        var section: String
        var measurement: String
        var median: String
        var ratio: String = ""
        var target: String = ""
        var verdict: String = ""
    }

    var rows: [Row] = []
    var notes: [String] = []

    mutating func add(
        _ section: String, _ measurement: String, _ median: String, ratio: String = "", target: String = "",
        met: Bool? = nil
    ) {
        rows.append(
            Row(
                section: section, measurement: measurement, median: median, ratio: ratio, target: target,
                verdict: met.map { $0 ? "met" : "NOT met" } ?? ""))
    }

    mutating func note(_ text: String) {
        notes.append(text)
    }

    func render() -> String {
        let header = Row(
            section: "section", measurement: "measurement", median: "median", ratio: "ratio", target: "target",
            verdict: "")
        let all = [header] + rows
        func width(_ column: (Row) -> String) -> Int { all.map { column($0).count }.max() ?? 0 }
        let columns: [(Row) -> String] = [
            { $0.section }, { $0.measurement }, { $0.median }, { $0.ratio }, { $0.target }, { $0.verdict },
        ]
        let widths = columns.map(width)
        func line(_ row: Row) -> String {
            let cells = zip(columns, widths).map { column, width in
                let text = column(row)
                return text + String(repeating: " ", count: max(0, width - text.count))
            }
            return "| " + cells.joined(separator: " | ") + " |"
        }
        var text = line(header) + "\n"
        text += "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|\n"
        for row in rows { text += line(row) + "\n" }
        for note in notes { text += "\n" + note }
        return text
    }
}

/// Formatting helpers.
enum Format {
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "n/a" }
        return String(format: "%.\(digits)f", value)
    }

    static func nanoseconds(_ value: Double) -> String {
        value >= 10_000 ? "\(fixed(value / 1000, 1)) µs/msg" : "\(fixed(value, 0)) ns/msg"
    }

    static func microseconds(_ nanoseconds: Double) -> String {
        "\(fixed(nanoseconds / 1000, nanoseconds < 100_000 ? 1 : 0)) µs"
    }

    static func rate(_ perSecond: Double) -> String {
        perSecond >= 1_000_000
            ? "\(fixed(perSecond / 1_000_000, 2))M msg/s" : "\(fixed(perSecond / 1000, 1))k msg/s"
    }

    static func ratio(_ value: Double) -> String {
        "\(fixed(value, value >= 10 ? 1 : 2))×"
    }

    static func mebibytes(_ bytes: Int) -> String {
        "\(fixed(Double(bytes) / 1_048_576, 1)) MiB"
    }

    static func count(_ value: Int) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }
}
