/// A line-based unified diff (Myers' algorithm), for `sdkgen --check` output and test failures.
enum UnifiedDiff {
    /// The diff from `old` to `new` with three lines of context, or an empty string when they are equal.
    static func diff(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        guard old != new else { return "" }
        let a = lines(old)
        let b = lines(new)
        let edits = script(a, b)
        var output = "--- \(oldName)\n+++ \(newName)\n"
        var index = 0
        while index < edits.count {
            guard edits[index].kind != .equal else {
                index += 1
                continue
            }
            // Gather a hunk: changes separated by at most 2 × context equal lines.
            var end = index
            var lastChange = index
            while end < edits.count {
                if edits[end].kind != .equal { lastChange = end }
                if end - lastChange > 2 * context { break }
                end += 1
            }
            let start = max(0, index - context)
            let stop = min(edits.count, lastChange + context + 1)
            let hunk = edits[start..<stop]
            let oldStart = hunk.first.map { $0.oldIndex } ?? 0
            let newStart = hunk.first.map { $0.newIndex } ?? 0
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            output +=
                "@@ -\(oldStart + (oldCount > 0 ? 1 : 0)),\(oldCount) +\(newStart + (newCount > 0 ? 1 : 0)),\(newCount) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .equal: output += " " + a[edit.oldIndex] + "\n"
                case .delete: output += "-" + a[edit.oldIndex] + "\n"
                case .insert: output += "+" + b[edit.newIndex] + "\n"
                }
            }
            index = stop
        }
        return output
    }

    private static func lines(_ text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }

    struct Edit {
        enum Kind { case equal, delete, insert }
        let kind: Kind
        /// For equal and delete: the line in `a`; for insert: the position in `a` before which it goes.
        let oldIndex: Int
        /// For equal and insert: the line in `b`; for delete: the position in `b`.
        let newIndex: Int
    }

    /// The shortest edit script from `a` to `b`.
    static func script(_ a: [String], _ b: [String]) -> [Edit] {
        let n = a.count
        let m = b.count
        let maxD = n + m
        var v = [Int](repeating: 0, count: 2 * maxD + 2)
        var trace: [[Int]] = []
        let offset = maxD + 1
        outer: for d in 0...maxD {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int = extendsFromAbove(v, offset: offset, k: k, d: d) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m { break outer }
            }
        }
        var edits: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK: Int = extendsFromAbove(v, offset: offset, k: k, d: d) ? k + 1 : k - 1
            let previousX = v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                edits.append(Edit(kind: .equal, oldIndex: x, newIndex: y))
            }
            if d > 0 {
                if x == previousX {
                    y -= 1
                    edits.append(Edit(kind: .insert, oldIndex: x, newIndex: y))
                } else {
                    x -= 1
                    edits.append(Edit(kind: .delete, oldIndex: x, newIndex: y))
                }
            }
        }
        return edits.reversed()
    }

    /// Whether the furthest path on diagonal `k` continues the one on diagonal `k + 1` (an insertion) rather than
    /// the one on `k - 1` (a deletion).
    private static func extendsFromAbove(_ v: [Int], offset: Int, k: Int, d: Int) -> Bool {
        if k == -d { return true }
        if k == d { return false }
        let below: Int = v[offset + k - 1]
        let above: Int = v[offset + k + 1]
        return below < above
    }
}
