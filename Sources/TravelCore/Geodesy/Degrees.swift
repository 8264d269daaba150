/// Angle arithmetic in degrees that is exact where it can be.
///
/// Reducing in degrees before converting to radians keeps multiples of 90° exact (sin 180° is 0, not
/// 1.2e-16) and keeps longitude differences exact, which the inverse geodesic needs near antipodes.
enum Degrees {
    static let radiansPerDegree = Double.pi / 180
    static let degreesPerRadian = 180 / Double.pi

    /// Sine and cosine of `degrees`, reduced to [−45°, 45°] first so that quadrant boundaries are exact.
    static func sinCos(_ degrees: Double) -> (sin: Double, cos: Double) {
        // fmod is exact; NaN and ±∞ give NaN.
        let reduced = degrees.truncatingRemainder(dividingBy: 360)
        let quadrant = reduced.isNaN ? 0 : (reduced / 90).rounded(.toNearestOrEven)
        return quadrantRotated(
            radians: (reduced - 90 * quadrant) * radiansPerDegree,
            quadrant: quadrant,
            signOfZeroSine: degrees
        )
    }

    /// Sine and cosine of `degrees + correction`, for a `degrees` in [−180, 180] carrying a small error term.
    static func sinCos(_ degrees: Double, correction: Double) -> (sin: Double, cos: Double) {
        let quadrant = degrees.isFinite ? (degrees / 90).rounded(.toNearestOrEven) : 0
        return quadrantRotated(
            radians: roundedTiny(degrees - 90 * quadrant + correction) * radiansPerDegree,
            quadrant: quadrant,
            signOfZeroSine: degrees
        )
    }

    private static func quadrantRotated(
        radians: Double,
        quadrant: Double,
        signOfZeroSine: Double
    ) -> (sin: Double, cos: Double) {
        let sine = sin(radians: radians)
        let cosine = cos(radians: radians)
        var result: (sin: Double, cos: Double)
        switch Int(quadrant).quotientAndRemainder(dividingBy: 4).remainder {
        case 1, -3: result = (cosine, -sine)
        case 2, -2: result = (-sine, -cosine)
        case 3, -1: result = (-cosine, sine)
        default: result = (sine, cosine)
        }
        result.cos += 0  // no −0 cosines: they would flip atan2 results downstream
        if result.sin == 0 {
            result.sin = Double(signOf: signOfZeroSine, magnitudeOf: 0)
        }
        return result
    }

    /// The angle in degrees, in [−180, 180], of the vector (x, y); exact at multiples of 90°.
    static func atan2(y: Double, x: Double) -> Double {
        // Fold into the first octant so the libm result is only ever added to exact multiples of 90°.
        var (y, x) = (y, x)
        var quadrant = 0
        if abs(y) > abs(x) {
            swap(&x, &y)
            quadrant = 2
        }
        if x < 0 {
            x = -x
            quadrant += 1
        }
        let angle = TravelCore.atan2(y: y, x: x) * degreesPerRadian
        switch quadrant {
        case 1: return Double(signOf: y, magnitudeOf: 180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// `angle` reduced to [−180, 180], keeping the sign of the input for ±180.
    static func normalized(_ angle: Double) -> Double {
        let reduced = angle.remainder(dividingBy: 360)
        return abs(reduced) == 180 ? Double(signOf: angle, magnitudeOf: 180) : reduced
    }

    /// `to − from` reduced to [−180, 180], as a rounded value plus the rounding error it dropped.
    ///
    /// The sign of a 0 or ±180 result follows the direction of the unreduced difference, which is
    /// what decides east-going from west-going for exactly antipodal points.
    static func difference(from: Double, to: Double) -> (value: Double, error: Double) {
        let sum = twoSum((-from).remainder(dividingBy: 360), to.remainder(dividingBy: 360))
        var reduced = twoSum(sum.value.remainder(dividingBy: 360), sum.error)
        if reduced.value == 0 || abs(reduced.value) == 180 {
            let direction = reduced.error == 0 ? to - from : -reduced.error
            reduced.value = Double(signOf: direction, magnitudeOf: reduced.value)
        }
        return reduced
    }

    /// `angle` with magnitudes below 1/16° snapped to a grid of 2⁻⁵⁷°, so tiny nonzero angles
    /// (1e-200°) cannot create near-singular cases; the grid step is 0.7 pm on the ground.
    static func roundedTiny(_ angle: Double) -> Double {
        let threshold = 1.0 / 16
        var magnitude = abs(angle)
        if magnitude < threshold {
            magnitude = threshold - (threshold - magnitude)  // rounds to the grid; IEEE forbids simplifying it
        }
        return Double(signOf: angle, magnitudeOf: magnitude)
    }

    /// `latitude`, or NaN when it lies beyond a pole, so bad input poisons results instead of wrapping.
    static func checkedLatitude(_ latitude: Double) -> Double {
        abs(latitude) > 90 ? .nan : latitude
    }

    /// Knuth's error-free sum: `value + error` equals `u + v` exactly.
    private static func twoSum(_ u: Double, _ v: Double) -> (value: Double, error: Double) {
        let value = u + v
        let uRounded = value - v
        let vRounded = value - uRounded
        let error = 0 - ((uRounded - u) + (vRounded - v))  // 0 − x rather than −x: never a −0 error
        return (value, value == 0 ? value : error)
    }
}
