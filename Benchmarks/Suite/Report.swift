import Foundation

/// One measured quantity, with its budget when it has one (see `Budgets` and `Benchmarks/README.md`).
struct Row: Sendable, Codable {
    /// The section, e.g. `Generator`.
    let section: String
    /// What was measured.
    let metric: String
    /// The unit of `summary`, e.g. `ms`.
    let unit: String
    /// The measurement.
    let summary: Summary
    /// The budget in words, e.g. `< 1000 ms`.
    var budget: String?
    /// Whether the median is within the budget.
    var withinBudget: Bool?
    /// Anything else worth printing, e.g. lines per method.
    var note: String?
}

/// Collects rows, prints them as one table and writes them as JSON.
final class Report {
    private(set) var rows: [Row] = []

    /// Adds a row measured in another process, which printed its progress line.
    func append(_ row: Row) {
        rows.append(row)
    }

    /// Adds a row and prints a progress line, so a long run shows where it is.
    func add(_ row: Row) {
        rows.append(row)
        FileHandle.standardError.write(
            Data("  \(row.section): \(row.metric) \(Self.number(row.summary.median)) \(row.unit)\n".utf8))
    }

    /// The rows a report written by ``write(to:environment:)`` holds.
    static func rows(from url: URL) throws -> [Row] {
        struct Document: Decodable { let rows: [Row] }
        return try JSONDecoder().decode(Document.self, from: Data(contentsOf: url)).rows
    }

    /// The table: section, metric, median, min–max, unit, budget, note.
    func table() -> String {
        let header = ["Section", "Metric", "Median", "Min – max", "Unit", "Budget", "Note"]
        let body = rows.map { row -> [String] in
            let verdict = row.withinBudget.map { $0 ? " ✓" : " ✗ over" } ?? ""
            return [
                row.section, row.metric, Self.number(row.summary.median),
                row.summary.runs > 1 ? "\(Self.number(row.summary.min)) – \(Self.number(row.summary.max))" : "",
                row.unit, (row.budget ?? "") + verdict, row.note ?? "",
            ]
        }
        let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
        let line = { (cells: [String]) in
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + body.map(line)).joined(separator: "\n")
    }

    /// Writes every row as JSON to `url`, creating its directory.
    func write(to url: URL, environment: [String: String]) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        struct Document: Encodable {
            let environment: [String: String]
            let rows: [Row]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Document(environment: environment, rows: rows)).write(to: url, options: .atomic)
    }

    /// Three significant digits, without exponent notation for everyday magnitudes.
    static func number(_ value: Double) -> String {
        if value == 0 { return "0" }
        let magnitude = abs(value)
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        if magnitude >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.3g", value)
    }
}
