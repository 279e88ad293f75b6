import XCTest

@testable import HealthSignInGenerator

final class UnifiedDiffTests: XCTestCase {
    func testHunkWithContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        XCTAssertEqual(
            UnifiedDiff.diff(old: old, new: new, oldName: "a", newName: "b"),
            """
            --- a
            +++ b
            @@ -2,7 +2,7 @@
             line 2
             line 3
             line 4
            -line 5
            +line five
             line 6
             line 7
             line 8

            """)
    }

    func testEqualTextsHaveNoDiff() {
        XCTAssertEqual(UnifiedDiff.diff(old: "x\n", new: "x\n", oldName: "a", newName: "b"), "")
    }

    func testCreationAndDeletion() {
        XCTAssertEqual(
            UnifiedDiff.diff(old: "", new: "a\nb\n", oldName: "/dev/null", newName: "f"),
            "--- /dev/null\n+++ f\n@@ -0,0 +1,2 @@\n+a\n+b\n")
        XCTAssertEqual(
            UnifiedDiff.diff(old: "a\n", new: "", oldName: "f", newName: "/dev/null"),
            "--- f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-a\n")
    }
}
