/// The proleptic Gregorian calendar RFC 3339 dates are written in (its Appendix C leap-year rule).
package enum Gregorian {
    /// Whether `year` has a February 29: every fourth year, except centuries not divisible by 400.
    package static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` (1–12) of `year`, or 0 for a month that does not exist.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    /// Whether `year`-`month`-`day` names a day of the calendar.
    package static func isValid(year: Int, month: Int, day: Int) -> Bool {
        day >= 1 && day <= daysIn(month: month, year: year)
    }

    /// Days from 1970-01-01 to a valid date, negative before it.
    ///
    /// Counts in 400-year eras starting each March, so February 29 is the last day of its counting year and needs
    /// no special case; the floor division keeps years before 1970 (down to 0000) exact.
    package static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
