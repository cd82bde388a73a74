import Foundation

/// The scaling section's plot, as a self-contained SVG (no dependencies): three panels
/// side by side, CPU time and wall-clock time per message and peak RSS, against the
/// number of messages on a logarithmic axis, one line per corpus; on the time panels a
/// dashed line per corpus marks its `jq -c .` time ÷ 4 (the target: at or below it).
struct ScalingPlot {
    let series: [ScalingSection.Series]

    static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    static let panelWidth = 330.0
    static let panelHeight = 280.0
    static let margin = (left: 64.0, right: 28.0, top: 36.0, bottom: 48.0)

    func svg() -> String {
        let width = 3 * (Self.panelWidth + Self.margin.left + Self.margin.right)
        let height = Self.panelHeight + Self.margin.top + Self.margin.bottom + 24 + 18 * Double(series.count)
        var text = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>

            """
        let cpu: [(String, [(Double, Double)], Double?)] = series.map { series in
            let jq = series.peers.first { $0.name.hasPrefix("jq") }
            return (series.corpus, series.points.map { (Double($0.messages), $0.cpu) }, jq.map { $0.cpu / 4 })
        }
        let wall: [(String, [(Double, Double)], Double?)] = series.map { series in
            let jq = series.peers.first { $0.name.hasPrefix("jq") }
            return (series.corpus, series.points.map { (Double($0.messages), $0.wall) }, jq.map { $0.wall / 4 })
        }
        let memory: [(String, [(Double, Double)], Double?)] = series.map { series in
            (series.corpus, series.points.map { (Double($0.messages), Double($0.peak) / 1_048_576) }, nil)
        }
        let step = Self.panelWidth + Self.margin.left + Self.margin.right
        text += panel(cpu, x: 0, title: "CPU time per message (ns)", unit: "ns")
        text += panel(wall, x: step, title: "wall-clock time per message (ns)", unit: "ns")
        text += panel(memory, x: 2 * step, title: "peak RSS (MiB)", unit: "MiB")
        var legendY = Self.panelHeight + Self.margin.top + Self.margin.bottom + 12
        for (index, series) in series.enumerated() {
            let color = Self.colors[index % Self.colors.count]
            text +=
                "<line x1=\"\(Self.margin.left)\" y1=\"\(legendY - 4)\" x2=\"\(Self.margin.left + 24)\" y2=\"\(legendY - 4)\" "
            text += "stroke=\"\(color)\" stroke-width=\"2\"/>"
            text += "<text x=\"\(Self.margin.left + 30)\" y=\"\(legendY)\">\(escape(series.corpus))"
            text += " (dashed: jq -c . time ÷ 4 on this corpus)</text>\n"
            legendY += 18
        }
        return text + "</svg>\n"
    }

    /// One panel: axes from 0 to a rounded maximum, x logarithmic over the sizes.
    private func panel(_ lines: [(String, [(Double, Double)], Double?)], x offset: Double, title: String, unit: String)
        -> String
    {
        let xs = lines.flatMap { $0.1.map(\.0) }
        let ys = lines.flatMap { $0.1.map(\.1) + ($0.2.map { [$0] } ?? []) }
        guard let xMin = xs.min(), let xMax = xs.max(), let yTop = ys.max(), yTop > 0 else { return "" }
        let yMax = niceCeiling(yTop * 1.1)
        let left = offset + Self.margin.left
        let top = Self.margin.top
        func px(_ value: Double) -> Double {
            guard xMax > xMin else { return left + Self.panelWidth / 2 }
            return left + (log(value) - log(xMin)) / (log(xMax) - log(xMin)) * Self.panelWidth
        }
        func py(_ value: Double) -> Double { top + Self.panelHeight - value / yMax * Self.panelHeight }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        var text =
            "<text x=\"\(number(left))\" y=\"\(number(top - 14))\" font-weight=\"bold\">\(escape(title))</text>\n"
        // Grid and y labels.
        for step in 0...4 {
            let value = yMax * Double(step) / 4
            let y = py(value)
            text +=
                "<line x1=\"\(number(left))\" y1=\"\(number(y))\" x2=\"\(number(left + Self.panelWidth))\" y2=\"\(number(y))\" "
            text += "stroke=\"#ddd\"/><text x=\"\(number(left - 6))\" y=\"\(number(y + 4))\" text-anchor=\"end\">"
            text += "\(Format.fixed(value, value < 10 ? 1 : 0))</text>\n"
        }
        // x labels at each size measured.
        for size in Set(xs).sorted() {
            let x = px(size)
            let label = size >= 1_000_000 ? "\(Format.fixed(size / 1_000_000, 1))M" : "\(Int(size / 1000))k"
            text +=
                "<line x1=\"\(number(x))\" y1=\"\(number(top))\" x2=\"\(number(x))\" y2=\"\(number(top + Self.panelHeight))\" "
            text += "stroke=\"#eee\"/><text x=\"\(number(x))\" y=\"\(number(top + Self.panelHeight + 16))\" "
            text += "text-anchor=\"middle\">\(label)</text>\n"
        }
        text += "<text x=\"\(number(left + Self.panelWidth / 2))\" y=\"\(number(top + Self.panelHeight + 36))\" "
        text += "text-anchor=\"middle\">messages (log scale)</text>\n"
        text += "<rect x=\"\(number(left))\" y=\"\(number(top))\" width=\"\(number(Self.panelWidth))\" "
        text += "height=\"\(number(Self.panelHeight))\" fill=\"none\" stroke=\"#444\"/>\n"
        for (index, line) in lines.enumerated() {
            let color = Self.colors[index % Self.colors.count]
            if let budget = line.2 {
                text +=
                    "<line x1=\"\(number(left))\" y1=\"\(number(py(budget)))\" x2=\"\(number(left + Self.panelWidth))\" "
                text +=
                    "y2=\"\(number(py(budget)))\" stroke=\"\(color)\" stroke-dasharray=\"6 4\" stroke-width=\"1\"/>\n"
            }
            let points = line.1.map { "\(number(px($0.0))),\(number(py($0.1)))" }.joined(separator: " ")
            text += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
            for point in line.1 {
                text += "<circle cx=\"\(number(px(point.0)))\" cy=\"\(number(py(point.1)))\" r=\"3\" fill=\"\(color)\">"
                text +=
                    "<title>\(escape(line.0)), \(Int(point.0)) messages: \(Format.fixed(point.1, 1)) \(unit)</title></circle>\n"
            }
        }
        return text
    }

    /// The smallest of 1, 2, 2.5, 5 × 10^k at or above `value`.
    private func niceCeiling(_ value: Double) -> Double {
        let power = pow(10, floor(log10(value)))
        for factor in [1.0, 2, 2.5, 5, 10] where factor * power >= value { return factor * power }
        return 10 * power
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
