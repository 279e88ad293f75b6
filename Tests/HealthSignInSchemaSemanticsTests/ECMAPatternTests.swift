import HealthSignInSchemaSemantics
import XCTest

/// ECMA-262 (u flag) semantics of `ECMAPattern`, observed through its public API only: captures are seen through
/// backreferences, and greediness through atomic lookaheads.
final class ECMAPatternTests: XCTestCase {
    // MARK: - Basics

    func testLiteralsSearchAnywhere() {
        assertMatch("abc", "abc", "xxabcxx", "abcabc")
        assertNoMatch("abc", "", "ab", "acb", "ABC")
        assertMatch("", "", "anything")
    }

    func testDisjunctionAndEmptyAlternatives() {
        assertMatch("^(?:cat|dog)$", "cat", "dog")
        assertNoMatch("^(?:cat|dog)$", "cow", "catdog")
        assertMatch("^(?:a|)$", "", "a")
        assertMatch("^(?:|a)b$", "b", "ab")
        assertMatch("^a||b$", "ab", "b", "a")
        assertMatch("^(?:a|ab)c$", "abc")
    }

    func testAnchorsAreTheEndsOfTheInputOnly() {
        assertMatch("^a", "ab")
        assertNoMatch("^a", "ba", "b\na")
        assertMatch("a$", "ba")
        assertNoMatch("a$", "ab", "a\nb")
        assertMatch("^$", "")
        assertNoMatch("^$", "\n")
        assertMatch("^a$|^b$", "b")
        assertNoMatch("a^", "a", "aa")
    }

    func testWordBoundaries() {
        assertMatch("\\bfoo\\b", "foo", "a foo.", "(foo)")
        assertNoMatch("\\bfoo\\b", "foobar", "_foo", "foo1")
        assertMatch("\\Boo\\B", "foot")
        assertNoMatch("\\Boo", "oo")
        // Only [A-Za-z0-9_] are word characters: é is not, so there is a boundary between a and é.
        assertMatch("a\\b", "aé")
        assertNoMatch("^\\b$", "", " ")
        assertMatch("^\\B$", "")
    }

    func testDotIsAnyCodePointButLineTerminators() {
        assertMatch("^.$", "a", "😀", "\u{0}", "\u{85}")
        assertNoMatch("^.$", "\n", "\r", "\u{2028}", "\u{2029}", "")
        assertNoMatch("^..$", "😀")
        // A decomposed é is two code points.
        assertNoMatch("^.$", "e\u{301}")
        assertMatch("^..$", "e\u{301}")
    }

    // MARK: - ECMA-262 class escapes

    func testDigitIsASCIIOnly() {
        assertMatch("^\\d$", "0", "9")
        assertNoMatch("^\\d$", "߀", "٣", "a", "")
        assertMatch("^\\D$", "߀", "a")
        assertNoMatch("^\\D$", "5")
    }

    func testWordIsASCIIOnly() {
        assertMatch("^\\w+$", "abc_XYZ_019")
        assertNoMatch("^\\w$", "é", "-", "ß", " ")
        assertMatch("^\\W$", "é", "-")
        assertNoMatch("^\\W$", "a", "_")
    }

    func testSpaceIsWhiteSpaceAndLineTerminators() {
        let spaces = [
            "\t", "\n", "\u{B}", "\u{C}", "\r", " ", "\u{A0}", "\u{1680}", "\u{2000}", "\u{200A}", "\u{2028}",
            "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}",
        ]
        for space in spaces {
            assertMatch("^\\s$", space)
            assertNoMatch("^\\S$", space)
        }
        // NEL is a control character, ZWSP a format character and U+180E left Zs in Unicode 6.3.
        assertNoMatch("^\\s$", "\u{85}", "\u{200B}", "\u{180E}", "a")
        assertMatch("^\\S$", "\u{85}", "a")
    }

    // MARK: - Escapes

    func testControlAndNumericEscapes() {
        assertMatch("^\\t\\n\\v\\f\\r$", "\t\n\u{B}\u{C}\r")
        assertMatch("^\\cJ\\cj$", "\n\n")
        assertMatch("^\\cA\\cZ$", "\u{1}\u{1A}")
        assertMatch("^\\0$", "\u{0}")
        assertMatch("^\\x41\\x7a$", "Az")
        assertMatch("^\\u0041\\u00e9$", "Aé")
        assertMatch("^\\u{1F600}$", "😀")
        assertMatch("^\\u{000000041}$", "A")
        assertMatch("^\\u{10FFFF}$", "\u{10FFFF}")
    }

    func testSurrogatePairEscapeIsOneCodePoint() {
        assertMatch("^\\uD83D\\uDE00$", "😀")
        assertMatch("^[\\uD83D\\uDE00]$", "😀")
        // Braced escapes are never combined: these are two lone surrogates, which no string contains.
        assertNoMatch("\\u{D83D}\\u{DE00}", "😀")
        assertNoMatch("\\uD83D", "😀", "\u{D7FF}")
        assertNoMatch("[\\uD800-\\uDFFF]", "😀", "a")
    }

    func testIdentityEscapesOfSyntaxCharacters() {
        assertMatch("^\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/$", "^$\\.*+?()[]{}|/")
        assertMatch("^[\\-\\]\\\\]+$", "-]\\")
    }

    // MARK: - Character classes

    func testClassesAndRanges() {
        assertMatch("^[a-c]+$", "abcba")
        assertNoMatch("^[a-c]$", "d", "A")
        assertMatch("^[^a-c]$", "d", "\n", "😀")
        assertNoMatch("^[^a-c]$", "b")
        assertMatch("^[\\x41-\\x43]$", "B")
        assertMatch("^[\\u{1F600}-\\u{1F64F}]$", "😀", "🙏")
        assertNoMatch("^[\\u{1F600}-\\u{1F64F}]$", "🚀")
        assertMatch("^[😀-😂]$", "😁")
        assertMatch("^[-a]$", "-", "a")
        assertMatch("^[a-]$", "-", "a")
        assertMatch("^[a-b-c]$", "a", "-", "c")
        assertMatch("^[--a]$", "-", "0", "a")
        assertMatch("^[\\b]$", "\u{8}")
        assertNoMatch("^[\\b]$", "b")
        assertMatch("^[[]$", "[")
        assertMatch("^[(){}|*+?.^$]+$", "(){}|*+?.^$")
        assertMatch("^[\\d\\s]+$", "1 2\t3")
        assertMatch("^[\\D]$", "a")
        assertNoMatch("^[^\\D]$", "a")
        assertMatch("^[^\\D]$", "7")
        assertMatch("^[^\\W\\d]$", "a", "_")
        assertNoMatch("^[^\\W\\d]$", "1", "é")
        assertNoMatch("[]", "", "a", "]")
        assertMatch("^[^]$", "\n", "😀")
        assertMatch("^[\\s\\S]$", "\u{2028}")
        assertMatch("^[\\0-\\x1F]$", "\u{0}", "\u{1F}")
    }

    // MARK: - Unicode property escapes

    func testGeneralCategoryProperties() {
        assertMatch("^\\p{L}$", "a", "é", "Ж", "中")
        assertNoMatch("^\\p{L}$", "1", "-", "😀")
        assertMatch("^\\p{Lu}$", "A", "É")
        assertNoMatch("^\\p{Lu}$", "a")
        assertMatch("^\\p{Ll}$", "a", "ß")
        assertMatch("^\\p{N}$", "5", "߀", "Ⅻ", "½")
        assertMatch("^\\p{Nd}$", "٣", "߀")
        assertNoMatch("^\\p{Nd}$", "½")
        assertMatch("^\\p{P}$", "!", "«", "-")
        assertMatch("^\\p{S}$", "+", "€", "😀")
        assertMatch("^\\p{Z}$", " ", "\u{2028}", "\u{2029}", "\u{3000}")
        assertMatch("^\\p{Zs}$", "\u{3000}", "\u{A0}")
        assertNoMatch("^\\p{Zs}$", "\u{2028}", "\t")
        assertMatch("^\\P{L}$", "1", "😀")
        assertNoMatch("^\\P{L}$", "a")
    }

    func testPropertyNameForms() {
        assertMatch("^\\p{General_Category=Uppercase_Letter}$", "A")
        assertMatch("^\\p{gc=Lu}$", "A")
        assertNoMatch("^\\p{gc=Lu}$", "a")
        assertMatch("^\\p{Letter}+$", "héllo")
        assertMatch("^\\p{digit}$", "7")
        assertMatch("^[\\p{L}\\d_]+$", "naïve_42")
        assertMatch("^[^\\p{L}]$", "4")
        assertNoMatch("^[^\\p{L}]$", "é")
        assertMatch("^[\\P{L}]$", "4")
        assertMatch("^\\p{Any}$", "\u{10FFFF}")
        assertMatch("^\\p{ASCII}+$", "abc~")
        assertNoMatch("^\\p{ASCII}$", "é")
        assertMatch("^\\p{Alphabetic}$", "é")
        assertMatch("^\\p{White_Space}$", "\u{85}")
    }

    func testUnsupportedOrUnknownPropertiesAreSyntaxErrors() {
        assertSyntaxError("\\p{Script=Latin}", at: 0)
        assertSyntaxError("\\p{sc=Latn}", at: 0)
        assertSyntaxError("\\p{Foo}", at: 0)
        assertSyntaxError("\\p{lu}", at: 0)
        assertSyntaxError("\\p{gc=Foo}", at: 0)
        assertSyntaxError("\\p{General_Category}", at: 0)
        assertSyntaxError("\\p{L", at: 0)
        assertSyntaxError("\\pL", at: 0)
        assertSyntaxError("\\p{}", at: 0)
        assertSyntaxError("a[\\p{ L}]", at: 2)
    }

    // MARK: - Quantifiers

    func testCountedQuantifiers() {
        assertMatch("^a{2}$", "aa")
        assertNoMatch("^a{2}$", "a", "aaa")
        assertMatch("^a{2,}$", "aa", "aaaaa")
        assertNoMatch("^a{2,}$", "a")
        assertMatch("^a{2,3}$", "aa", "aaa")
        assertNoMatch("^a{2,3}$", "a", "aaaa")
        assertMatch("^(?:ab){2}$", "abab")
        assertMatch("^a{0}$", "")
        assertMatch("^a{0,0}b$", "b")
        assertMatch("^a{001,02}$", "aa")
        assertMatch("^x*y+z?$", "yy", "xxyz")
        assertNoMatch("^x*y+z?$", "xz")
        assertNoMatch("^a{99999999999999999999}$", "aaa")
    }

    func testGreedyAndLazyAreVisibleThroughAtomicLookahead() {
        // A lookahead keeps the first way its body matched, so the capture shows the quantifier's preference.
        assertMatch("^(?=(a+))\\1b$", "aab")
        assertNoMatch("^(?=(a+?))\\1b$", "aab")
        assertMatch("^(?=(a+?))\\1ab$", "aab")
        assertMatch("^(?=(a*?))\\1aab$", "aab")
        assertMatch("^(?=(a??))\\1ab$", "ab")
        assertNoMatch("^(?=(a?))\\1ab$", "ab")
        assertMatch("^(?=(a{2,}?))\\1a$", "aaa")
        assertMatch("^(?=((?:ab)+?))\\1abab$", "ababab")
        assertMatch("^(?=((?:ab)+))\\1$", "ababab")
    }

    func testEmptyIterationsEndALoop() {
        assertMatch("^(a*)*$", "", "aaa")
        assertMatch("^(a*)+$", "", "aaa")
        assertMatch("^(?:a?)*b$", "aab")
        assertMatch("^(?:)*$", "")
        assertMatch("^(?:a|)*?b$", "aab")
        assertMatch("^(?:\\b)*a$", "a")
        assertMatch("^(?:(?=a))*a$", "a")
        assertMatch("^(?:a*){3}$", "aa")
    }

    // MARK: - Captures and backreferences

    func testBackreferences() {
        assertMatch("^(a)\\1$", "aa")
        assertNoMatch("^(a)\\1$", "a", "aA")
        assertMatch("^(.)\\1$", "😀😀")
        assertNoMatch("^(.)\\1$", "😀😁")
        assertMatch("^(?:(a)|b)\\1$", "b", "aa")
        assertNoMatch("^(?:(a)|b)\\1$", "ba", "a")
        // A group that has not participated matches the empty string, also when it comes later.
        assertMatch("^\\1(a)$", "a")
        assertMatch("^(a\\1)$", "a")
        assertMatch("^(a)|\\1b$", "b")
        assertMatch("^(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10$", "abcdefghijj")
        assertNoMatch("^(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10$", "abcdefghija0")
        assertMatch("^(\\w+) \\1$", "hello hello")
        assertNoMatch("^(\\w+) \\1$", "hello Hello")
    }

    func testNamedGroups() {
        assertMatch("^(?<word>ab)\\k<word>$", "abab")
        assertMatch("^(?<word>ab)\\1$", "abab")
        assertMatch("^\\k<late>(?<late>x)$", "x")
        assertMatch("^(?<$_é>a)\\k<$_é>$", "aa")
        assertMatch("^(?<\\u0061b>c)\\k<ab>$", "cc")
        assertMatch("^(?<\\u{62}>c)\\k<b>$", "cc")
        assertNoMatch("^(?<y>a)(?<z>b)\\k<y>$", "abb")
    }

    func testCapturesResetOnEachIteration() {
        // Iteration two (b) clears group 1, so \1 then matches nothing: "ab" matches and "aba" does not.
        // Engines that keep group 1 from iteration one answer the other way round.
        assertMatch("^(?:(a)|b)*\\1$", "ab")
        assertNoMatch("^(?:(a)|b)*\\1$", "aba")
        assertMatch("^(?:(a)|b)*\\1$", "abaa")
        assertMatch("^(?:(a)|b)+\\1$", "aaa")
        // ECMA-262's own example: in the last iteration (a+)? and (b+)? take part in nothing, so groups 3
        // and 4 are undefined; a stale group 4 would be "bbb".
        assertMatch("^(z)((a+)?(b+)?(c))*\\4$", "zaacbbbcac")
        assertNoMatch("^(z)((a+)?(b+)?(c))*\\4$", "zaacbbbcacbbb")
        assertMatch("^(z)((a+)?(b+)?(c))*\\3$", "zaacbbbcaca")
        assertMatch("^(z)((a+)?(b+)?(c))*\\2$", "zaacbbbcacac")
    }

    func testBacktrackingRestoresCaptures() {
        assertMatch("^(?:(a)b|ac)\\1$", "ac")
        assertNoMatch("^(?:(a)b|ac)\\1$", "aca")
        assertMatch("^(a+)+b\\1$", "aaaba")
        assertMatch("^(a|ab)(c|bcd)(d*)\\2$", "abcdbcd")
    }

    // MARK: - Lookarounds

    func testLookahead() {
        assertMatch("^(?=.*\\d)(?=.*[a-z]).{6,}$", "abc123")
        assertNoMatch("^(?=.*\\d)(?=.*[a-z]).{6,}$", "abcdef", "123456", "ab1")
        assertMatch("^a(?!b)", "ac", "a")
        assertNoMatch("^a(?!b)", "ab")
        // The lookahead's captures survive it; it is atomic, so it does not retry with a shorter capture.
        assertMatch("(?=(a+))a*b\\1", "baaabac")
        assertNoMatch("^(?=(a+))a*b\\1$", "aaaba")
        assertMatch("^(?=(a+))a*b\\1$", "aaabaaa")
        // A negative lookahead leaves no captures behind.
        assertMatch("^(?!(a)b)\\1ac$", "ac")
        assertMatch("^(?!(?!a)).$", "a")
        assertNoMatch("^(?!(?!a)).$", "b")
    }

    func testLookbehind() {
        assertMatch("(?<=\\$)\\d+", "$12")
        assertNoMatch("(?<=\\$)\\d+", "12", "€12")
        assertNoMatch("(?<!\\$)\\b\\d+", "$12")
        assertMatch("(?<!\\$)\\b\\d+", "x 12")
        assertMatch("(?<=a|bc)d", "bcd", "ad")
        assertNoMatch("(?<=a|bc)d", "cd", "d")
        assertMatch("(?<=^a*)b", "aaab", "b")
        assertNoMatch("(?<=^a*)b", "acb")
        assertMatch("(?<=😀)x", "😀x")
        assertMatch("(?<=^.)x", "😀x")
        assertMatch("(?<=a(?=b))b", "ab")
        assertMatch("(?<=(?<!c)a)b", "ab")
        assertNoMatch("(?<=(?<!c)a)b", "cab")
        assertMatch("(?<=\\b)a", "a")
        assertMatch("^.(?<=^😀)$", "😀")
    }

    func testLookbehindMatchesBackwards() {
        // Right to left, the greedy second group takes all it can first: groups are "1" and "053".
        assertMatch("(?<=^(\\d+)(\\d+))x\\2$", "1053x053")
        assertNoMatch("(?<=^(\\d+)(\\d+))x\\2$", "1053x3")
        assertMatch("(?<=^(\\d+)(\\d+))x\\1$", "1053x1")
        // Backward, the group on the right is matched before the reference on its left.
        assertMatch("(?<=\\1(a))b", "aab")
        assertNoMatch("(?<=\\1(a))b", "ab")
        assertMatch("(?<=(a)\\1)b", "ab")
        assertMatch("(?<=([ab])\\1)c", "aac", "bbc")
    }

    // MARK: - Syntax errors

    func testGroupAndQuantifierSyntaxErrors() {
        assertSyntaxError("(", at: 0, "unterminated group")
        assertSyntaxError("a(b(c)", at: 1, "unterminated group")
        assertSyntaxError(")", at: 0, "unmatched ')'")
        assertSyntaxError("a)", at: 1)
        assertSyntaxError("(?a)", at: 0)
        assertSyntaxError("(?i:a)", at: 0)
        assertSyntaxError("a{2,1}", at: 1, "numbers out of order in {} quantifier")
        assertSyntaxError("a{99999999999999999999,99999999999999999998}", at: 1)
        assertSyntaxError("*a", at: 0, "nothing to repeat")
        assertSyntaxError("+", at: 0)
        assertSyntaxError("?", at: 0)
        assertSyntaxError("a**", at: 2, "nothing to repeat")
        assertSyntaxError("a|*", at: 2)
        assertSyntaxError("(*)", at: 1)
        assertSyntaxError("{", at: 0)
        assertSyntaxError("{1}", at: 0, "nothing to repeat")
        assertSyntaxError("a{", at: 1)
        assertSyntaxError("a{1", at: 1)
        assertSyntaxError("a{,2}", at: 1)
        assertSyntaxError("a{1,2", at: 1)
        assertSyntaxError("}", at: 0)
        assertSyntaxError("a]", at: 1)
        assertSyntaxError("(?=a)*", at: 5, "nothing to repeat")
        assertSyntaxError("(?!a){2}", at: 5)
        assertSyntaxError("(?<=a)+", at: 6)
        assertSyntaxError("(?<!a)?", at: 6)
        assertSyntaxError("^*", at: 1)
        assertSyntaxError("$+", at: 1)
        assertSyntaxError("\\b+", at: 2)
        assertSyntaxError("\\B{1}", at: 2)
    }

    func testEscapeSyntaxErrors() {
        assertSyntaxError("\\a", at: 0, "invalid escape \\a")
        assertSyntaxError("x\\e", at: 1)
        assertSyntaxError("\\q", at: 0)
        assertSyntaxError("\\-", at: 0)
        assertSyntaxError("\\_", at: 0)
        assertSyntaxError("\\", at: 0)
        assertSyntaxError("ab\\", at: 2)
        assertSyntaxError("\\x4", at: 0)
        assertSyntaxError("\\xG0", at: 0)
        assertSyntaxError("\\u12", at: 0)
        assertSyntaxError("\\u{}", at: 0)
        assertSyntaxError("\\u{110000}", at: 0)
        assertSyntaxError("\\u{FFFFFFFFF}", at: 0)
        assertSyntaxError("\\u{41", at: 0)
        assertSyntaxError("\\c1", at: 0)
        assertSyntaxError("\\c", at: 0)
        assertSyntaxError("\\01", at: 0)
        assertSyntaxError("\\00", at: 0)
    }

    func testBackreferenceAndNameSyntaxErrors() {
        assertSyntaxError("\\2(a)", at: 0, "reference to nonexistent group 2")
        assertSyntaxError("(a)\\2", at: 3)
        assertSyntaxError("\\8", at: 0)
        assertSyntaxError("(a)x\\10", at: 4)
        assertSyntaxError("(?<n>a)(?<n>b)", at: 10, "duplicate group name n")
        assertSyntaxError("(?<n>a)|(?<n>b)", at: 11)
        assertSyntaxError("\\k<x>", at: 0)
        assertSyntaxError("(?<x>a)\\k<y>", at: 7)
        assertSyntaxError("\\k", at: 0)
        assertSyntaxError("(?<x>a)\\kx", at: 7)
        assertSyntaxError("(?<x>a)\\k<x", at: 10)
        assertSyntaxError("(?<1a>x)", at: 3)
        assertSyntaxError("(?<a-b>x)", at: 4)
        assertSyntaxError("(?<>x)", at: 3)
        assertSyntaxError("(?<a", at: 3)
        assertSyntaxError("(?<\\x41>a)", at: 3)
        assertSyntaxError("(?<\\u0031>a)", at: 3)
    }

    func testClassSyntaxErrors() {
        assertSyntaxError("[a", at: 0, "unterminated character class")
        assertSyntaxError("x[^", at: 1)
        assertSyntaxError("[a-", at: 0)
        assertSyntaxError("[\\]", at: 0)
        assertSyntaxError("[b-a]", at: 1, "range out of order in character class")
        assertSyntaxError("[a--]", at: 1)
        assertSyntaxError("[\\d-z]", at: 1)
        assertSyntaxError("[a-\\d]", at: 1)
        assertSyntaxError("[\\p{L}-z]", at: 1)
        assertSyntaxError("[\\1]", at: 1)
        assertSyntaxError("[\\B]", at: 1)
        assertSyntaxError("[\\k<a>](?<a>x)", at: 1)
        assertSyntaxError("[\\c1]", at: 1)
        assertSyntaxError("[\\a]", at: 1)
        assertSyntaxError("[\\00]", at: 1)
    }

    func testValidPatternsThatLookSuspicious() throws {
        // A forward reference is fine when the group exists.
        _ = try ECMAPattern("\\2(a)(b)")
        _ = try ECMAPattern("[\\-]")
        _ = try ECMAPattern("\\/")
        _ = try ECMAPattern("[{}()|]")
        _ = try ECMAPattern("a{1}?")
        _ = try ECMAPattern("(?:)")
        _ = try ECMAPattern("()")
        _ = try ECMAPattern("a{0,4294967296}")
    }

    func testSyntaxErrorDescriptionHasOffsetAndReason() {
        do {
            _ = try ECMAPattern("ab[c")
            XCTFail("expected a syntax error")
        } catch {
            XCTAssertEqual(error.kind, .syntax)
            XCTAssertEqual(error.offset, 2)
            XCTAssertEqual(error.description, "invalid pattern at offset 2: unterminated character class")
        }
    }

    func testOffsetsCountCodePoints() {
        assertSyntaxError("😀😀*+", at: 3)
        assertSyntaxError("é\\a", at: 1)
    }

    // MARK: - Work limits

    func testCatastrophicBacktrackingReportsTooComplex() throws {
        let pattern = try ECMAPattern("(a*)*b")
        let subject = String(repeating: "a", count: 40)
        do {
            _ = try pattern.matches(subject, stepLimit: 100_000)
            XCTFail("expected the step limit to stop the search")
        } catch {
            XCTAssertEqual(error.kind, .tooComplex)
            XCTAssertEqual(error.offset, 0)
        }
        XCTAssertThrowsError(try ECMAPattern("^(a|a)*b").matches(subject, stepLimit: 100_000))
        XCTAssertThrowsError(try ECMAPattern("^(?:a+)+$").matches(subject + "b", stepLimit: 100_000))
        // The same pattern finishes quickly when it can match.
        XCTAssertTrue(try pattern.matches(subject + "b", stepLimit: 100_000))
        XCTAssertThrowsError(try ECMAPattern("a").matches("a", stepLimit: 0))
    }

    func testLongSubjectsDoNotExhaustTheStack() throws {
        let count = 100_000
        let letters = String(repeating: "a", count: count)
        let alternating = String(repeating: "ab", count: count / 2)
        XCTAssertTrue(try ECMAPattern("a*").matches(letters))
        XCTAssertTrue(try ECMAPattern("^a*$").matches(letters))
        XCTAssertTrue(try ECMAPattern("^(a|b)*$").matches(alternating))
        XCTAssertTrue(try ECMAPattern("^(?:a|b)*$").matches(alternating))
        XCTAssertTrue(try ECMAPattern("^((a)|b)*\\2$").matches(alternating + "aa"))
        XCTAssertTrue(try ECMAPattern("^(?:ab)+$").matches(alternating))
        XCTAssertTrue(try ECMAPattern("^(?:a+)+$").matches(letters))
        XCTAssertTrue(try ECMAPattern("^(a|b)*?$").matches(alternating))
        XCTAssertFalse(try ECMAPattern("^(a|b)*c").matches(alternating))
        XCTAssertTrue(try ECMAPattern("b(?<=^a*b)").matches(letters + "b"))
        XCTAssertTrue(try ECMAPattern("c(?<=^(?:a|b)*c)").matches(alternating + "c"))
        XCTAssertTrue(try ECMAPattern("^(?=(a*))\\1$").matches(letters))
        XCTAssertTrue(try ECMAPattern("^(a*)\\1$").matches(letters))
        // Unanchored failures cost a pass per start; they either finish or stop at the limit, never crash.
        do {
            _ = try ECMAPattern("(a|b)*c").matches(alternating, stepLimit: 1_000_000)
        } catch {
            XCTAssertEqual(error.kind, .tooComplex)
        }
    }

    func testDeepNestingIsBoundedNotFatal() throws {
        let depth = 256
        let nested = String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
        XCTAssertTrue(try ECMAPattern(nested).matches("a"))
        let tooDeep = String(repeating: "(?:", count: depth + 1) + "a" + String(repeating: ")", count: depth + 1)
        do {
            _ = try ECMAPattern(tooDeep)
            XCTFail("expected the nesting limit")
        } catch {
            XCTAssertEqual(error.kind, .tooComplex)
            XCTAssertEqual(error.offset, 3 * depth)
        }
        assertSyntaxError(String(repeating: ")", count: 100_000), at: 0)
    }

    func testDeepNestingFitsASmallThreadStack() {
        // Parsing, compiling, matching and releasing must not recurse per level: a schema may be validated on a
        // thread whose stack is far smaller than the main thread's.
        let finished = expectation(description: "deep patterns handled on a 256 KB stack")
        let thread = Thread {
            let depth = 256
            let quantified = String(repeating: "(?:", count: depth) + "a" + String(repeating: ")*", count: depth)
            let lookarounds = String(repeating: "(?<=", count: depth) + "a" + String(repeating: ")", count: depth)
            let captures = String(repeating: "(", count: depth) + "a" + String(repeating: ")+", count: depth)
            let results = [
                try? ECMAPattern(quantified).matches("aaa"), try? ECMAPattern(lookarounds).matches("ab"),
                try? ECMAPattern(captures).matches("aa"),
            ]
            if results == [true, true, true] {
                finished.fulfill()
            }
        }
        thread.stackSize = 256 * 1024
        thread.start()
        wait(for: [finished], timeout: 60)
    }

    func testManyAlternativesAndLongPatterns() throws {
        let words = (0..<2_000).map { "w\($0)x" }
        let pattern = try ECMAPattern("^(?:" + words.joined(separator: "|") + ")$")
        XCTAssertTrue(try pattern.matches("w1999x"))
        XCTAssertFalse(try pattern.matches("w2000x"))
        let long = try ECMAPattern(String(repeating: "a?", count: 5_000) + "b")
        XCTAssertTrue(try long.matches("aab"))
    }

    // MARK: - Values

    func testEqualityAndHashingFollowTheSource() throws {
        let first = try ECMAPattern("^a+$")
        let second = try ECMAPattern("^a+$")
        XCTAssertEqual(first, second)
        XCTAssertEqual(first.hashValue, second.hashValue)
        XCTAssertNotEqual(first, try ECMAPattern("^a*$"))
        XCTAssertEqual(first.source, "^a+$")
        XCTAssertEqual(Set([first, second]).count, 1)
    }

    // MARK: - Helpers

    private func result(
        _ pattern: String, _ subject: String, file: StaticString, line: UInt
    ) -> Bool? {
        do {
            return try ECMAPattern(pattern).matches(subject)
        } catch {
            XCTFail("/\(pattern)/ on \(subject.debugDescription): \(error)", file: file, line: line)
            return nil
        }
    }

    private func assertMatch(
        _ pattern: String, _ subjects: String..., file: StaticString = #filePath, line: UInt = #line
    ) {
        for subject in subjects {
            XCTAssertEqual(
                result(pattern, subject, file: file, line: line), true,
                "/\(pattern)/ should match \(subject.debugDescription)", file: file, line: line)
        }
    }

    private func assertNoMatch(
        _ pattern: String, _ subjects: String..., file: StaticString = #filePath, line: UInt = #line
    ) {
        for subject in subjects {
            XCTAssertEqual(
                result(pattern, subject, file: file, line: line), false,
                "/\(pattern)/ should not match \(subject.debugDescription)", file: file, line: line)
        }
    }

    private func assertSyntaxError(
        _ pattern: String, at offset: Int, _ reason: String? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        do {
            _ = try ECMAPattern(pattern)
            XCTFail("/\(pattern)/ should be a syntax error", file: file, line: line)
        } catch {
            XCTAssertEqual(error.kind, .syntax, "/\(pattern)/: \(error)", file: file, line: line)
            XCTAssertEqual(error.offset, offset, "/\(pattern)/: \(error)", file: file, line: line)
            if let reason {
                XCTAssertEqual(error.reason, reason, "/\(pattern)/", file: file, line: line)
            }
        }
    }
}
