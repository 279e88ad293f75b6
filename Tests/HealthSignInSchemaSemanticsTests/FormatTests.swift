import HealthSignInSchemaSemantics
import XCTest

final class FormatTests: XCTestCase {
    // MARK: date-time

    func testValidDateTimes() {
        let valid = [
            "1963-06-19T08:30:06.283185Z",
            "1963-06-19T08:30:06Z",
            "1937-01-01T12:00:27.87+00:20",
            "1990-12-31T15:59:50.123-08:00",
            "1963-06-19t08:30:06.283185z",
            "1985-04-12T00:59:59.999999999999999Z",
            "2024-01-15T10:20:30+23:59",
            "2024-01-15T10:20:30-23:59",
            "2024-01-15T10:20:30-00:00",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "2000-02-29T12:00:00Z",
            "2024-02-29T12:00:00Z",
        ]
        for text in valid {
            XCTAssertNotNil(RFC3339DateTime(text), text)
        }
    }

    func testInvalidDateTimes() {
        let invalid = [
            "", "2024-01-15", "2024-01-15T10:20:30", "2024-01-15T10:20Z", "2024-01-15 10:20:30Z",
            " 2024-01-15T10:20:30Z", "2024-01-15T10:20:30Z ", "2024-01-15T10:20:30 Z", "2024-01-15T10:20:30.Z",
            "2024-01-15T10:20:30.5", "2024-01-15T24:00:00Z", "2024-01-15T23:60:00Z", "2024-01-15T23:59:61Z",
            "2024-01-15T10:20:30+24:00", "2024-01-15T10:20:30+10:60", "2024-01-15T10:20:30+0100",
            "2024-01-15T10:20:30+01", "2024-01-15T10:20:30+01:00Z", "1963-06-19T08:30:06.28123+01:00Z",
            "1900-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2024-02-30T00:00:00Z", "2024-04-31T00:00:00Z",
            "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-01-00T00:00:00Z", "+12024-01-15T10:20:30Z",
            "2024-1-15T10:20:30Z", "2024-01-15T1:20:30Z", "06/19/1963 08:30:06 PST", "2013-350T01:01:01",
            "1963-06-1\u{09EA}T00:00:00Z", "1963-06-11T0\u{09EA}:00:00Z", "2024-01-15X10:20:30Z",
            "2024-01-15T10:20:30,5Z", "2024-01-15T10:20:30.5\u{0301}Z", "2024-01-15T10:20:30z\u{0000}",
        ]
        for text in invalid {
            XCTAssertNil(RFC3339DateTime(text), text)
        }
    }

    func testLeapSecondsOnlyAtTheLastMinuteOfTheUTCDay() {
        XCTAssertNotNil(RFC3339DateTime("1998-12-31T23:59:60Z"))
        XCTAssertNotNil(RFC3339DateTime("1998-12-31T15:59:60.123-08:00"))
        XCTAssertNotNil(RFC3339DateTime("1999-01-01T00:59:60+01:00"))
        XCTAssertNotNil(RFC3339DateTime("2016-12-31T23:59:60.5z"))
        XCTAssertNil(RFC3339DateTime("1998-12-31T23:58:60Z"))
        XCTAssertNil(RFC3339DateTime("1998-12-31T22:59:60Z"))
        XCTAssertNil(RFC3339DateTime("1998-12-31T23:59:60+01:00"))
        XCTAssertNil(RFC3339DateTime("2024-01-15T10:20:60Z"))
    }

    func testDateTimeFields() throws {
        let value = try XCTUnwrap(RFC3339DateTime("1990-12-31T15:59:50.123-08:30"))
        XCTAssertEqual(value.year, 1990)
        XCTAssertEqual(value.month, 12)
        XCTAssertEqual(value.day, 31)
        XCTAssertEqual(value.hour, 15)
        XCTAssertEqual(value.minute, 59)
        XCTAssertEqual(value.second, 50)
        XCTAssertEqual(value.fraction, "123")
        XCTAssertEqual(value.offsetMinutes, -510)
        XCTAssertEqual(try XCTUnwrap(RFC3339DateTime("2024-01-15T10:20:30Z")).fraction, "")
        XCTAssertEqual(try XCTUnwrap(RFC3339DateTime("2024-01-15T10:20:30.000+05:45")).fraction, "000")
        XCTAssertEqual(try XCTUnwrap(RFC3339DateTime("2024-01-15T10:20:30.000+05:45")).offsetMinutes, 345)
        XCTAssertEqual(RFC3339DateTime("2024-01-15t10:20:30z"), RFC3339DateTime("2024-01-15T10:20:30Z"))
    }

    func testSecondsSince1970() throws {
        func seconds(_ text: String) throws -> Int64 {
            try XCTUnwrap(RFC3339DateTime(text), text).secondsSince1970
        }
        XCTAssertEqual(try seconds("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(try seconds("1970-01-01T01:00:00+01:00"), 0)
        XCTAssertEqual(try seconds("1969-12-31T16:00:00-08:00"), 0)
        XCTAssertEqual(try seconds("1969-12-31T23:59:59.5Z"), -1)
        XCTAssertEqual(try seconds("2000-03-01T00:00:00Z"), 951_868_800)
        XCTAssertEqual(try seconds("2024-02-29T12:34:56Z"), 1_709_210_096)
        XCTAssertEqual(try seconds("2038-01-19T03:14:08Z"), 2_147_483_648)
        XCTAssertEqual(try seconds("0001-01-01T00:00:00Z"), -62_135_596_800)
        XCTAssertEqual(try seconds("0000-01-01T00:00:00Z"), -62_167_219_200)
        XCTAssertEqual(try seconds("9999-12-31T23:59:59Z"), 253_402_300_799)
        XCTAssertEqual(try seconds("1900-03-01T00:00:00Z"), -2_203_891_200)
        // A leap second reads as the next day's first second.
        XCTAssertEqual(try seconds("1998-12-31T23:59:60Z"), try seconds("1999-01-01T00:00:00Z"))
        XCTAssertEqual(try seconds("1998-12-31T15:59:60.123-08:00"), 915_148_800)
    }

    // MARK: full-date

    func testDates() throws {
        let valid = [
            "1963-06-19", "2020-01-31", "2021-02-28", "2020-02-29", "2000-02-29", "0400-02-29", "0001-01-01",
            "2024-02-29", "2020-04-30", "2020-12-31",
        ]
        for text in valid {
            XCTAssertNotNil(RFC3339Date(text), text)
        }
        let invalid = [
            "", "2020-01-32", "2020-02-30", "2021-02-29", "1900-02-29", "2100-02-29", "0100-02-29", "2020-04-31",
            "2020-06-31", "2020-09-31", "2020-11-31", "1998-13-01", "2024-00-15", "2024-01-00", "06/19/1963",
            "2013-350", "1998-1-20", "1998-01-1", " 2024-01-15", "2024-01-15 ", "2020-01-01Z",
            "2020-11-28T23:55:45Z", "20230328", "2023-W01", "12020-01-01", "+2020-01-01", "-2020-01-01",
            "2020--01-01", "2020-0\u{09EA}-01", "\u{09E8}020-01-01", "2020:01:01", "YYYY-01-01",
        ]
        for text in invalid {
            XCTAssertNil(RFC3339Date(text), text)
        }
        let date = try XCTUnwrap(RFC3339Date("2024-02-29"))
        XCTAssertEqual([date.year, date.month, date.day], [2024, 2, 29])
    }

    // MARK: uuid

    func testUUIDs() throws {
        let valid = [
            "2EB8AA08-AA98-11EA-B4AA-73B441D16380", "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
            "2eb8aa08-AA98-11ea-B4Aa-73B441D16380", "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff", "99c17cbb-656f-f64a-940f-1a4568f03487",
        ]
        for text in valid {
            XCTAssertNotNil(UUIDText(text), text)
        }
        let invalid = [
            "", "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}", "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380",
            "2eb8aa08aa9811eab4aa73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
            "2eb8aa08-aa98-11ea-b4aa-73b441d163800", "2eb8aa08-aa98-11ea-73b441d16380",
            "2eb8aa08-aa98-11ea-b4ga-73b441d16380", "2eb8aa0-8aa98-11e-ab4aa7-3b441d16380",
            "2eb8aa08aa98-11ea-b4aa73b441d16380", "2eb8aa08aa9811eab4aa73b441d16380----",
            " 2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d16380 ",
            "2eb8aa08-aa98-11ea-b4aa-73b441d1638\u{0660}", "2eb8aa08-aa98-11ea-b4aa-73b441d1638\u{00E9}",
            "2eb8aa08_aa98_11ea_b4aa_73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d1638\n",
        ]
        for text in invalid {
            XCTAssertNil(UUIDText(text), text)
        }
        let uuid = try XCTUnwrap(UUIDText("00112233-4455-6677-8899-AaBbCcDdEeFf"))
        XCTAssertEqual(
            uuid.bytes,
            [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])
    }

    // MARK: uri

    func testURIs() {
        let valid = [
            // RFC 3986 §1.1.2.
            "ftp://ftp.is.co.za/rfc/rfc1808.txt", "http://www.ietf.org/rfc/rfc2396.txt",
            "ldap://[2001:db8::7]/c=GB?objectClass?one", "mailto:John.Doe@example.com",
            "news:comp.infosystems.www.servers.unix", "tel:+1-816-555-1212", "telnet://192.0.2.16:80/",
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            // The brief's and the JSON Schema Test Suite's.
            "urn:isbn:0451450523", "mailto:a@b", "http://[::1]:80/a?b#c", "http://foo.bar/?baz=qux#quux",
            "http://foo.com/blah_(wikipedia)_blah#cite-1", "http://foo.bar/?q=Test%20URL-encoded%20stuff",
            "http://xn--nw2a.xn--j6w193g/", "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
            "http://223.255.255.254", "http://087.10.0.1/", "http://999.999.999.999/", "http://a.com:",
            "http://a.com:999999999", "http://:80", "http://@a.com", "http://user@", "http://!$&'()*+,;=.com",
            "http://example.com.", "http://exa~mple.com/", "http://under_score.com/",
            // Edge cases of the grammar.
            "http:", "http://", "file:///etc/hosts", "http://a:b@c:1/d", "a:", "a+b-c.d:x", "A:b",
            "http://[1:2:3:4:5:6:7:8]/", "http://[::]/", "http://[1::]/", "http://[1:2:3:4:5:6:7::]/",
            "http://[::ffff:192.0.2.1]/", "http://[1:2:3:4:5:6:192.0.2.1]/", "http://[v1.fe80::a+en1]/",
            "http://[V7.x]/", "http://[ABCD:ef01::]/", "foo:/a//b", "foo:a:b/c", "foo:?", "foo:#", "foo:?#",
            "foo:#a?b/c", "foo://h/p?q/?#f/?", "http://a/%C3%A9", "s://%41%62@h", "x:%2a", "http://h:/p",
            "http://h//", "foo:@", "urn:example:a123,z456",
        ]
        for text in valid {
            XCTAssertTrue(URIText.isURI(text), text)
        }
        let invalid = [
            "", "/abc", "abc", "foo bar.txt", "http://example.com/%", "http://example.com/%6G", "http://example.com/%A",
            "http://example.com/%zz", "//foo.bar/?baz=qux#quux", "\\\\WINDOWS\\fileshare", "http:// shouldfail.com",
            ":// should fail", ":foo", "1http://example.com", "ht_tp://example.com", "bar,baz:foo",
            "https://[@example.org/test.txt", "https://example.org/foobar\u{00AE}.txt", "https://example.org/foo\\.txt",
            "https://example.org/foobar\".txt", "https://example.org/foobar<>.txt", "https://example.org/foobar{}.txt",
            "https://example.org/foobar^.txt", "https://example.org/foobar`.txt", "https://example.org/foo bar.txt",
            "https://example.org/foobar|.txt", "http://example.com:abc/path", "http://a.com:8:0", "http://a.com::",
            "http://a#b#c", "http://[::1", "http://::1]/", "http://[:::1]/", "http://[1:::2]/", "http://[1::2::3]/",
            "http://[1:2:3:4:5:6:7:8:9]/", "http://[1:2:3:4:5:6:7]/", "http://[1:2:3:4:5:6:7:8::]/",
            "http://[12345::]/", "http://[g::]/", "http://[::1.2.3]/", "http://[::1.2.3.256]/",
            "http://[::01.2.3.4]/", "http://[1.2.3.4]/", "http://[1.2.3.4::]/", "http://[fe80::1%25en0]/",
            "http://[v.x]/", "http://[v1.]/", "http://[vg.x]/", "http://[v1.%41]/", "http://[]/", "http://[::1]x/",
            "http://[::1]:8a/", "http://a@b@c/", "http://h/a b", "http://h/\u{0000}", "http://h/\n",
            "http://h/?a b", "http://h/#a b", " http://h/", "http://h/ ", "http://h/\u{00E9}", "\u{00E9}:x",
            "http\u{0000}:x", "-a:b", ".a:b", "+a:b",
        ]
        for text in invalid {
            XCTAssertFalse(URIText.isURI(text), text)
        }
    }

    func testURIReferences() {
        let valid = [
            "", "/abc", "abc", "./1a:b", "../a/b", "?q", "#f", "//foo.bar/?baz=qux#quux", "//[::1]", "a/b:c",
            "http://h/p", "urn:isbn:0451450523", "%41", "/%41/",
        ]
        for text in valid {
            XCTAssertTrue(URIText.isURIReference(text), text)
        }
        let invalid = [
            "1a:b", "foo bar.txt", "%", "/a%", "\\\\WINDOWS\\fileshare", "#a#b", "//[::1", "a?b c", "\u{00E9}",
            "http://example.com/%",
        ]
        for text in invalid {
            XCTAssertFalse(URIText.isURIReference(text), text)
        }
    }

    func testLongAndHostileURIsFinish() {
        let long = "http://h/" + String(repeating: "a/", count: 200_000)
        XCTAssertTrue(URIText.isURI(long))
        XCTAssertFalse(URIText.isURI(long + "%"))
        XCTAssertFalse(URIText.isURI("http://[" + String(repeating: ":", count: 100_000) + "]/"))
        XCTAssertFalse(URIText.isURI("http://[" + String(repeating: "1:", count: 100_000) + "]/"))
        XCTAssertFalse(URIText.isURI(String(repeating: "a", count: 100_000)))
    }

    /// Text built from the grammars' own pieces, shuffled, never traps any reader.
    func testArbitraryTextNeverTraps() {
        let atoms = [
            "2024", "-", "01", "29", "60", "T", "t", ":", "Z", "+", ".", "5", "9", "[", "]", "::", "%", "%4", "@", "/",
            "?", "#", "v", "ff", "1.2.3.4", "http", "é", " ", "\u{0}", "00000000", "0000", "000000000000", "😀",
        ]
        var state: UInt64 = 0x1234_5678
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var accepted = 0
        for _ in 0..<30000 {
            let text = (0..<next(14)).map { _ in atoms[next(atoms.count)] }.joined()
            if let value = RFC3339DateTime(text) {
                accepted += 1
                _ = value.secondsSince1970
            }
            accepted += RFC3339Date(text) == nil ? 0 : 1
            accepted += UUIDText(text) == nil ? 0 : 1
            accepted += URIText.isURI(text) ? 1 : 0
            accepted += URIText.isURIReference(text) ? 1 : 0
            _ = CodePoints.equal(text, String(text.reversed()))
        }
        XCTAssertGreaterThan(accepted, 0)
    }

    // MARK: code points

    func testCodePointEquality() {
        XCTAssertTrue("a\u{308}" == "\u{E4}")
        XCTAssertFalse(CodePoints.equal("a\u{308}", "\u{E4}"))
        XCTAssertTrue(CodePoints.equal("\u{E4}", "\u{E4}"))
        XCTAssertTrue(CodePoints.equal("", ""))
        XCTAssertFalse(CodePoints.equal("a", "A"))
        XCTAssertFalse(CodePoints.equal("\u{212B}", "\u{C5}"))
        XCTAssertTrue(CodePoints.equal("😀x", "😀x"))
        XCTAssertFalse(CodePoints.equal("ab", "abc"))
    }

    func testCodePointCount() {
        XCTAssertEqual(CodePoints.count(""), 0)
        XCTAssertEqual(CodePoints.count("abc"), 3)
        XCTAssertEqual(CodePoints.count("e\u{301}"), 2)
        XCTAssertEqual(CodePoints.count("😀"), 1)
        XCTAssertEqual(CodePoints.count("👨‍👩‍👧"), 5)
        XCTAssertEqual(CodePoints.count("\u{E4}"), 1)
    }
}
