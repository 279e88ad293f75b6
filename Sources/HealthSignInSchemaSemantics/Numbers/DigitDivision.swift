/// Exact divisibility of natural numbers written as decimal digit arrays (most significant first, 0–9 each).
enum DigitDivision {
    /// The base of the limbs long division works in: nine decimal digits per limb, so converting from digits is
    /// linear and a product of two limbs plus a carry stays inside `Int64`.
    static let base: Int64 = 1_000_000_000

    /// Whether `divisor` divides `dividend`·10^`zeros`; `divisor` must not be zero (it then answers false).
    static func divides(_ divisor: [UInt8], _ dividend: [UInt8], zeros: Int) -> Bool {
        guard divisor.contains(where: { $0 != 0 }) else { return false }
        if divisor.count <= 18 {
            return remainder(of: dividend, zeros: zeros, modulo: divisor.reduce(0) { $0 * 10 + UInt64($1) }) == 0
        }
        let denominator = limbs(divisor, zeros: 0)
        let numerator = limbs(dividend, zeros: zeros)
        return remainderIsZero(numerator, denominator)
    }

    /// `digits`·10^`zeros` mod `modulus`, one digit at a time; `modulus` is below 10^18, so `remainder·10 + 9`
    /// stays below 2^64.
    static func remainder(of digits: [UInt8], zeros: Int, modulo modulus: UInt64) -> UInt64 {
        var remainder: UInt64 = 0
        for digit in digits {
            remainder = (remainder * 10 + UInt64(digit)) % modulus
        }
        for _ in 0..<max(zeros, 0) {
            remainder = remainder * 10 % modulus
        }
        return remainder
    }

    /// The base-10^9 limbs of `digits`·10^`zeros`, least significant first, without leading zero limbs.
    static func limbs(_ digits: [UInt8], zeros: Int) -> [Int64] {
        let all = digits + [UInt8](repeating: 0, count: max(zeros, 0))
        var result: [Int64] = []
        result.reserveCapacity(all.count / 9 + 1)
        var end = all.count
        while end > 0 {
            let start = max(end - 9, 0)
            result.append(all[start..<end].reduce(0) { $0 * 10 + Int64($1) })
            end = start
        }
        while result.last == 0 { result.removeLast() }
        return result
    }

    /// Whether `denominator` divides `numerator` (limbs, least significant first, no leading zero limbs), by the
    /// long division of Knuth's TAOCP vol. 2 §4.3.1 (Algorithm D), keeping only the remainder.
    static func remainderIsZero(_ numerator: [Int64], _ denominator: [Int64]) -> Bool {
        let n = denominator.count
        guard n > 0 else { return false }
        guard !numerator.isEmpty else { return true }
        guard numerator.count >= n else { return false }  // 0 < numerator < denominator
        if n == 1 {
            var remainder: Int64 = 0
            for limb in numerator.reversed() {
                remainder = (remainder * base + limb) % denominator[0]
            }
            return remainder == 0
        }
        // Scaling both by d makes the divisor's top limb at least base/2, so each estimated quotient limb is at
        // most two too large; a remainder is zero exactly when the scaled one is.
        let scale = base / (denominator[n - 1] + 1)
        let divisor = multiply(denominator, by: scale)
        var remainder = multiply(numerator, by: scale)
        if remainder.count == numerator.count { remainder.append(0) }
        let top = divisor[n - 1]
        let second = divisor[n - 2]
        for j in stride(from: remainder.count - n - 1, through: 0, by: -1) {
            let leading = remainder[j + n] * base + remainder[j + n - 1]
            var estimate = leading / top
            var estimateRemainder = leading % top
            while estimate >= base || estimate * second > base * estimateRemainder + remainder[j + n - 2] {
                estimate -= 1
                estimateRemainder += top
                if estimateRemainder >= base { break }
            }
            subtract(divisor, times: estimate, from: &remainder, at: j)
        }
        return remainder[0..<n].allSatisfy { $0 == 0 }
    }

    /// `limbs`·`factor` for a factor below the base, with a limb for any final carry.
    private static func multiply(_ limbs: [Int64], by factor: Int64) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(limbs.count + 1)
        var carry: Int64 = 0
        for limb in limbs {
            let product = limb * factor + carry
            result.append(product % base)
            carry = product / base
        }
        if carry > 0 { result.append(carry) }
        return result
    }

    /// Subtracts `divisor`·`quotient` from the n + 1 limbs of `remainder` starting at `offset`, adding `divisor`
    /// back once when the estimate was one too large (the result went below zero).
    private static func subtract(
        _ divisor: [Int64], times quotient: Int64, from remainder: inout [Int64], at offset: Int
    ) {
        let n = divisor.count
        var carry: Int64 = 0
        var borrow: Int64 = 0
        for i in 0..<n {
            let product = quotient * divisor[i] + carry
            carry = product / base
            var difference = remainder[offset + i] - product % base - borrow
            borrow = difference < 0 ? 1 : 0
            difference += borrow * base
            remainder[offset + i] = difference
        }
        var top = remainder[offset + n] - carry - borrow
        if top < 0 {
            var addCarry: Int64 = 0
            for i in 0..<n {
                let sum = remainder[offset + i] + divisor[i] + addCarry
                addCarry = sum >= base ? 1 : 0
                remainder[offset + i] = sum - addCarry * base
            }
            top += addCarry
        }
        remainder[offset + n] = top
    }
}
