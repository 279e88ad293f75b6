import HealthSignInSchemaSemantics
import XCTest

final class DecimalTests: XCTestCase {
    private func number(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> DecimalNumber {
        guard let value = DecimalNumber(jsonText: text) else {
            XCTFail("\(text) is not read as a number", file: file, line: line)
            return DecimalNumber(0)
        }
        return value
    }

    // MARK: parsing

    func testAcceptsTheJSONNumberGrammar() {
        let valid = [
            "0", "-0", "1", "-1", "10", "0.5", "-0.5", "1.0", "1e5", "1E5", "1e+5", "1e-5", "1.5e10", "0e0",
            "0.000", "-0.0e-0", "123456789012345678901234567890", "1e0000000000000000000000000000005",
            "0e99999999999999999999999999", "1e999999999999999999", "1e-999999999999999999",
        ]
        for text in valid {
            XCTAssertNotNil(DecimalNumber(jsonText: text), text)
        }
    }

    func testRejectsWhatTheGrammarDoesNot() {
        let invalid = [
            "", "+1", "01", "-01", "00", "1.", ".5", "-.5", "1e", "1e+", "1e-", "e5", "-", "--1", "NaN", "nan",
            "Infinity", "-Infinity", "inf", " 1", "1 ", "1\n", "0x10", "1_000", "1,5", "1.5.5", "1e5e5", "1e5.5",
            "\u{0661}", "1\u{0301}", "١", "1.e5", "0.", "- 1",
            // An exponent beyond 18 significant digits is refused unless the number is zero.
            "1e1000000000000000000", "1e-1000000000000000000", "0.1e99999999999999999999",
            // So is one whose exponent in scientific notation (what description prints) would be beyond it.
            "10e999999999999999999", "0.1e-999999999999999999", "-95e999999999999999999",
        ]
        for text in invalid {
            XCTAssertNil(DecimalNumber(jsonText: text), text)
        }
    }

    func testInitializersFromIntegersAndDoubles() {
        XCTAssertEqual(DecimalNumber(Int64.max), number("9223372036854775807"))
        XCTAssertEqual(DecimalNumber(Int64.min), number("-9223372036854775808"))
        XCTAssertEqual(DecimalNumber(0), number("0"))
        XCTAssertEqual(DecimalNumber(-120), number("-1.2e2"))
        XCTAssertEqual(DecimalNumber(0.1), number("0.1"))
        XCTAssertEqual(DecimalNumber(-0.0), number("0"))
        XCTAssertEqual(DecimalNumber(1e-5), number("0.00001"))
        XCTAssertEqual(DecimalNumber(1e16), number("10000000000000000"))
        XCTAssertEqual(DecimalNumber(Double.greatestFiniteMagnitude), number("1.7976931348623157e308"))
        XCTAssertEqual(DecimalNumber(Double.leastNonzeroMagnitude), number("5e-324"))
        XCTAssertEqual(DecimalNumber(2.5), number("2.5"))
        XCTAssertNil(DecimalNumber(Double.nan))
        XCTAssertNil(DecimalNumber(Double.infinity))
        XCTAssertNil(DecimalNumber(-Double.infinity))
    }

    // MARK: equality and order

    func testEqualityAcrossSpellings() {
        let spellings = ["1", "1.0", "10e-1", "0.1e1", "1.000e0", "100e-2", "0.001e3", "1E0"]
        for text in spellings {
            XCTAssertEqual(number(text), number("1"), text)
            XCTAssertEqual(number(text).hashValue, number("1").hashValue, text)
        }
        XCTAssertEqual(number("-0"), number("0"))
        XCTAssertEqual(number("-0.0e5"), number("0e-5"))
        XCTAssertEqual(number("-0").hashValue, number("0").hashValue)
        XCTAssertEqual(number("1e400"), number("10e399"))
        XCTAssertEqual(number("1e-1000000000"), number("0.1e-999999999"))
        XCTAssertNotEqual(number("1"), number("-1"))
        XCTAssertNotEqual(number("1e400"), number("1e401"))
        XCTAssertNotEqual(number("0.1"), number("0.10000000000000001"))
        XCTAssertEqual(Set(["1", "1.0", "10e-1", "2", "2.00"].map { number($0) }).count, 2)
    }

    func testOrdering() {
        let ascending = [
            "-1e1000000000", "-1e400", "-100", "-10.5", "-10", "-1", "-0.5", "-1e-400", "0", "1e-1000000000",
            "1e-400", "0.1", "0.10000000000000001", "0.5", "1", "1.0000000001", "9", "10", "10.5", "99", "100",
            "123456789012345678901234567890", "1e400", "1e1000000000",
        ]
        let numbers = ascending.map { number($0) }
        for (i, left) in numbers.enumerated() {
            for (j, right) in numbers.enumerated() {
                XCTAssertEqual(left < right, i < j, "\(ascending[i]) < \(ascending[j])")
                XCTAssertEqual(left == right, i == j, "\(ascending[i]) == \(ascending[j])")
            }
        }
        XCTAssertFalse(number("-0") < number("0"))
        XCTAssertFalse(number("0") < number("-0"))
        XCTAssertEqual(numbers.shuffled().sorted(), numbers)
        XCTAssertEqual(number("1.5e1"), number("15"))
        XCTAssertTrue(number("0.12") < number("0.125"))
        XCTAssertTrue(number("-0.125") < number("-0.12"))
    }

    func testDescriptionIsNormalizedJSONText() {
        let cases: [(String, String)] = [
            ("0", "0"), ("-0.0", "0"), ("1.0", "1"), ("10e-1", "1"), ("1e2", "100"), ("-1.50", "-1.5"),
            ("0.001", "0.001"), ("1e-6", "0.000001"), ("1e-7", "1e-7"), ("1.5e-7", "1.5e-7"),
            ("1e20", "100000000000000000000"),
            ("1e21", "1e21"), ("-1.25e30", "-1.25e30"), ("1e1000000000", "1e1000000000"),
            ("1e-1000000000", "1e-1000000000"), ("123.456", "123.456"), ("0.5", "0.5"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(number(text).description, expected, text)
            XCTAssertEqual(DecimalNumber(jsonText: number(text).description), number(text), text)
        }
    }

    // MARK: integers

    func testIsInteger() {
        for text in ["0", "-0", "1", "1.0", "1e2", "1.5e1", "0e5", "-7", "1e1000000000", "2.50e1", "0.0"] {
            XCTAssertTrue(number(text).isInteger, text)
        }
        for text in ["1.25e1", "1e-1", "0.5", "-0.5", "1.0000000001", "1e-1000000000", "123456789.5"] {
            XCTAssertFalse(number(text).isInteger, text)
        }
    }

    func testInt64Value() {
        XCTAssertEqual(number("9223372036854775807").int64Value, Int64.max)
        XCTAssertEqual(number("-9223372036854775808").int64Value, Int64.min)
        XCTAssertEqual(number("9.223372036854775807e18").int64Value, Int64.max)
        XCTAssertNil(number("9223372036854775808").int64Value)
        XCTAssertNil(number("-9223372036854775809").int64Value)
        XCTAssertNil(number("1e19").int64Value)
        XCTAssertEqual(number("1e18").int64Value, 1_000_000_000_000_000_000)
        XCTAssertNil(number("99999999999999999999").int64Value)
        XCTAssertNil(number("1e1000000000").int64Value)
        XCTAssertNil(number("0.5").int64Value)
        XCTAssertEqual(number("0").int64Value, 0)
        XCTAssertEqual(number("-0.0").int64Value, 0)
        XCTAssertEqual(number("1.0").int64Value, 1)
        XCTAssertEqual(number("-1.5e1").int64Value, -15)
    }

    // MARK: multipleOf

    func testIsMultiple() {
        let multiples: [(String, String)] = [
            ("0.3", "0.1"), ("7.5", "2.5"), ("1e400", "2"), ("1e400", "5"), ("1e400", "1024"), ("1e-400", "1e-401"),
            ("10", "0.0001"), ("0", "7"), ("-0", "0.3"), ("-9", "3"), ("9", "-3"), ("0.5", "0.25"), ("4.5", "1.5"),
            ("1e308", "1e-308"), ("19.99", "0.01"), ("1e1000000000", "1e-1000000000"), ("1e1000000000", "8"),
            ("12345678901234567890", "10"), ("1.0", "1"), ("100", "1e2"), ("3e-5", "1e-5"), ("6", "1.5"),
        ]
        for (value, divisor) in multiples {
            XCTAssertTrue(number(value).isMultiple(of: number(divisor)), "\(value) of \(divisor)")
        }
        let nonMultiples: [(String, String)] = [
            ("0.31", "0.1"), ("1e400", "3"), ("1e400", "7"), ("1e-401", "1e-400"), ("1", "2"), ("7", "2.5"),
            ("0.1", "0.3"), ("1e1000000000", "3"), ("1e-1000000000", "1"), ("1", "1e1000000000"), ("0.5", "1"),
            ("1e400", "0.3"), ("10", "0"), ("0", "0"), ("100", "1e3"), ("1e400", "1048577"),
        ]
        for (value, divisor) in nonMultiples {
            XCTAssertFalse(number(value).isMultiple(of: number(divisor)), "\(value) of \(divisor)")
        }
    }

    /// Every answer here would need 10^18 digits if an exponent were expanded; they come from the exponents alone.
    func testHugeExponentsFinishInstantly() {
        let huge = number("1e999999999999999999")
        let tiny = number("1e-999999999999999999")
        XCTAssertTrue(huge.isMultiple(of: number("2")))
        XCTAssertFalse(huge.isMultiple(of: number("3")))
        XCTAssertTrue(huge.isMultiple(of: tiny))
        XCTAssertFalse(tiny.isMultiple(of: huge))
        XCTAssertTrue(huge.isMultiple(of: number("1.024e-999999999999999999")))
        XCTAssertFalse(huge.isMultiple(of: number("123456789012345678901234567890123")))
        XCTAssertTrue(huge.isMultiple(of: number("2384185791015625")))  // 5^22
        XCTAssertTrue(huge.isMultiple(of: number("1267650600228229401496703205376")))  // 2^100
        XCTAssertFalse(huge.isMultiple(of: number("1267650600228229401496703205377")))
        XCTAssertTrue(huge.isInteger)
        XCTAssertFalse(tiny.isInteger)
        XCTAssertNil(huge.int64Value)
        XCTAssertTrue(tiny < huge)
        XCTAssertEqual(huge.description, "1e999999999999999999")
    }

    /// Products of random many-digit numbers are multiples of each factor, and one more is not, which exercises the
    /// long division the short divisors never reach.
    func testLongDivisionAgainstProducts() {
        var random = SplitMix64(seed: 0x5EED)
        for round in 0..<300 {
            let left = randomDigits(count: 1 + Int(random.next() % 60), using: &random)
            let right = randomDigits(count: 1 + Int(random.next() % 60), using: &random)
            let product = multiply(left, right)
            let scale = Int(random.next() % 20)
            let value = number(product + "e\(scale)")
            let divisor = number(right)
            XCTAssertTrue(value.isMultiple(of: divisor), "round \(round): \(product)e\(scale) of \(right)")
            let offByOne = number(add(product, "1"))
            if right != "1" {
                XCTAssertFalse(offByOne.isMultiple(of: divisor), "round \(round): \(product)+1 of \(right)")
            }
            let leftFactor = number("\(left)e-\(scale)")
            XCTAssertTrue(number(product).isMultiple(of: leftFactor), "round \(round): \(product) of \(left)e-\(scale)")
        }
    }

    /// Divisors whose limbs push Algorithm D's estimate and add-back paths: all nines, powers of the base minus one,
    /// and numbers with a small top limb.
    func testLongDivisionEdgeDivisors() {
        let divisors = [
            String(repeating: "9", count: 27), "1" + String(repeating: "0", count: 17) + "1",
            "1" + String(repeating: "0", count: 26) + "7", String(repeating: "9", count: 19) + "8",
            "500000000" + String(repeating: "0", count: 9) + "1", "1000000000000000000000000000001",
            "4999999999999999999999999999999",
        ]
        var random = SplitMix64(seed: 42)
        for divisor in divisors {
            for _ in 0..<40 {
                let factor = randomDigits(count: 1 + Int(random.next() % 50), using: &random)
                let product = multiply(factor, divisor)
                XCTAssertTrue(number(product).isMultiple(of: number(divisor)), "\(product) of \(divisor)")
                XCTAssertFalse(number(add(product, "1")).isMultiple(of: number(divisor)), "\(product)+1 of \(divisor)")
                XCTAssertFalse(
                    number(add(product, String(divisor.dropFirst()))).isMultiple(of: number(divisor)),
                    "\(product)+tail of \(divisor)")
            }
        }
    }

    func testLongNumbersStayCheap() {
        let digits = "7" + String(repeating: "3", count: 200_000)
        let long = number(digits)
        XCTAssertEqual(long, number(digits + ".000"))
        XCTAssertTrue(long < number(digits + "1"))
        XCTAssertFalse(long.isMultiple(of: number("2")))
        XCTAssertFalse(long.isMultiple(of: number("123456789012345678901234567")))
        XCTAssertNil(long.int64Value)
    }

    /// Small numbers against exact integer arithmetic: x·10^-s is a multiple of y·10^-t exactly when, scaled to a
    /// common exponent, the integers divide; and they order as the scaled integers do.
    func testSmallNumbersAgreeWithIntegerArithmetic() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<5000 {
            let x = Int64(random.next() % 20001) - 10000
            let y = Int64(random.next() % 2000) + 1
            let s = Int(random.next() % 5)
            let t = Int(random.next() % 5)
            let value = number("\(x)e-\(s)")
            let divisor = number("\(y)e-\(t)")
            let common = max(s, t)
            var (scaledX, scaledY) = (x, y)
            for _ in 0..<(common - s) { scaledX *= 10 }
            for _ in 0..<(common - t) { scaledY *= 10 }
            XCTAssertEqual(value.isMultiple(of: divisor), scaledX % scaledY == 0, "\(x)e-\(s) of \(y)e-\(t)")
            XCTAssertEqual(value < divisor, scaledX < scaledY, "\(x)e-\(s) < \(y)e-\(t)")
            XCTAssertEqual(value == divisor, scaledX == scaledY, "\(x)e-\(s) == \(y)e-\(t)")
            XCTAssertEqual(value.isInteger, s == 0 || x % Int64(pow10(s)) == 0, "\(x)e-\(s)")
        }
    }

    /// Arbitrary text never traps: whatever parses can be printed, compared, divided and converted.
    func testArbitraryTextNeverTraps() {
        let atoms = ["-", "+", "0", "1", "9", ".", "e", "E", "00", "5", "e999999999999999999", "e-99999999", " ", "x"]
        var random = SplitMix64(seed: 99)
        var parsed: [DecimalNumber] = [DecimalNumber(1)]
        for _ in 0..<20000 {
            let text = (0..<Int(random.next() % 8)).map { _ in atoms[Int(random.next() % UInt64(atoms.count))] }
                .joined()
            guard let value = DecimalNumber(jsonText: text) else { continue }
            XCTAssertEqual(DecimalNumber(jsonText: value.description), value, text)
            let other = parsed[Int(random.next() % UInt64(parsed.count))]
            _ = value.isMultiple(of: other)
            _ = other.isMultiple(of: value)
            _ = value < other
            _ = value.int64Value
            parsed.append(value)
        }
        XCTAssertGreaterThan(parsed.count, 1000)
    }

    private func pow10(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { result, _ in result * 10 }
    }

    // MARK: helpers

    private func randomDigits(count: Int, using random: inout SplitMix64) -> String {
        var text = String(UnicodeScalar(UInt8(ascii: "1") + UInt8(random.next() % 9)))
        for _ in 1..<max(count, 1) {
            text.append(Character(UnicodeScalar(UInt8(ascii: "0") + UInt8(random.next() % 10))))
        }
        return text
    }

    /// Schoolbook multiplication of two digit strings, independent of the code under test.
    private func multiply(_ left: String, _ right: String) -> String {
        let a = left.utf8.reversed().map { Int($0) - 48 }
        let b = right.utf8.reversed().map { Int($0) - 48 }
        var result = [Int](repeating: 0, count: a.count + b.count)
        for (i, x) in a.enumerated() {
            var carry = 0
            for (j, y) in b.enumerated() {
                let total = result[i + j] + x * y + carry
                result[i + j] = total % 10
                carry = total / 10
            }
            result[i + b.count] += carry
        }
        while result.count > 1 && result.last == 0 { result.removeLast() }
        return String(result.reversed().map { Character(String($0)) })
    }

    /// Addition of two digit strings.
    private func add(_ left: String, _ right: String) -> String {
        let a = left.utf8.reversed().map { Int($0) - 48 }
        let b = right.utf8.reversed().map { Int($0) - 48 }
        var result: [Int] = []
        var carry = 0
        for i in 0..<max(a.count, b.count) {
            let total = (i < a.count ? a[i] : 0) + (i < b.count ? b[i] : 0) + carry
            result.append(total % 10)
            carry = total / 10
        }
        if carry > 0 { result.append(carry) }
        return String(result.reversed().map { Character(String($0)) })
    }
}

/// A small deterministic generator, so the property tests see the same numbers on every run.
private struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
