/// Karney's solution of the inverse geodesic problem on WGS84 ("Algorithms for geodesics", J. Geodesy 2013).
///
/// The points are first brought into a canonical configuration by symmetries (point 1 the farther from the equator
/// and south of it, longitude difference in [0°, 180°]); the geodesic is then found on the auxiliary sphere, where
/// latitudes become parametric latitudes β. Meridians and the equator are solved directly; every other line by
/// Newton's method on the azimuth α₁ at point 1, started from a spherical estimate or, for nearly antipodal points,
/// from the paper's astroid approximation, with a bisection fallback that keeps it convergent everywhere.
struct InverseSolver {
    /// What the public API reports, in the caller's orientation; azimuths as sine and cosine.
    struct Solution {
        var distance: Double
        var sinInitialAzimuth: Double
        var cosInitialAzimuth: Double
        var sinFinalAzimuth: Double
        var cosFinalAzimuth: Double
    }

    /// A point on the auxiliary sphere: its parametric latitude β, and √(1 + e′² sin²β) (the ratio of the
    /// ellipsoid's radius there to b, in the integrand of the reduced length).
    private struct ReducedPoint {
        var sinBeta: Double
        var cosBeta: Double
        var dn: Double { (1 + WGS84.secondEccentricitySquared * sinBeta * sinBeta).squareRoot() }
    }

    /// The geodesic that leaves point 1 at a trial azimuth α₁, as far as the Newton iteration needs it.
    private struct TrialLine {
        /// The trial azimuth α₁ itself.
        var sinAlpha1: Double
        var cosAlpha1: Double
        /// λ₁₂(α₁) − λ₁₂: how far east of point 2 the trial line arrives at its latitude, radians.
        var longitudeMismatch: Double
        /// d(mismatch)/dα₁, NaN when not asked for.
        var derivative: Double
        var sinAlpha2: Double
        var cosAlpha2: Double
        /// Arc length σ₁₂ on the auxiliary sphere, radians.
        var sigma12: Double
        var sinSigma1: Double
        var cosSigma1: Double
        var sinSigma2: Double
        var cosSigma2: Double
        var epsilon: Double
    }

    private enum StartingEstimate {
        /// So short that the spherical solution, on a sphere scaled to the mid latitude, is already exact.
        case shortLine(
            sigma12: Double,
            sphereScale: Double,
            sinAlpha1: Double,
            cosAlpha1: Double,
            sinAlpha2: Double,
            cosAlpha2: Double
        )
        case newton(sinAlpha1: Double, cosAlpha1: Double)
    }

    private static let machineEpsilon = Double.ulpOfOne
    /// Stands in for zero where a zero would make the configuration degenerate (cos β at a pole).
    private static let tiny = Double.leastNormalMagnitude.squareRoot()
    private static let newtonIterationLimit = 20
    /// Then bisection, which gains a bit each step: enough to reach full precision from any bracket.
    private static let iterationLimit = newtonIterationLimit + (Double.significandBitCount + 1) + 10
    /// Below this σ₁₂ (about 0.2 m on the ground) the sphere scaled to the mid latitude is exact to rounding
    /// error (Karney's etol2: its relative error is σ₁₂² f (1 − f/2) / 2, here kept 100 times below ε).
    private static let shortLineArc =
        0.1 * machineEpsilon.squareRoot() / (WGS84.flattening * (1 - WGS84.flattening / 2) / 2).squareRoot()

    private let point1: ReducedPoint
    private let point2: ReducedPoint
    private let dn1: Double
    private let dn2: Double
    /// Longitude difference λ₁₂ in radians, and its sine and cosine from the exact degree value.
    private let lambda12: Double
    private let sinLambda12: Double
    private let cosLambda12: Double

    private init(point1: ReducedPoint, point2: ReducedPoint, lambda12: Double, sinLambda12: Double, cosLambda12: Double)
    {
        self.point1 = point1
        self.point2 = point2
        self.dn1 = point1.dn
        self.dn2 = point2.dn
        self.lambda12 = lambda12
        self.sinLambda12 = sinLambda12
        self.cosLambda12 = cosLambda12
    }

    static func solve(from start: Coordinate, to end: Coordinate) -> Solution {
        let f = WGS84.flattening
        // Longitude difference made non-negative; the supplement 180° − lon12 is kept exact for the
        // equatorial test below.
        var (lon12, lon12Error) = Degrees.difference(from: start.longitude, to: end.longitude)
        var longitudeSign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= longitudeSign
        lon12Error *= longitudeSign
        let (sinLambda12, cosLambda12) = Degrees.sinCos(lon12, correction: lon12Error)
        let lon12Supplement = (180 - lon12) - lon12Error

        // Point 1 is the one farther from the equator, and is moved south of it.
        var lat1 = Degrees.roundedTiny(Degrees.checkedLatitude(start.latitude))
        var lat2 = Degrees.roundedTiny(Degrees.checkedLatitude(end.latitude))
        let swapped = abs(lat1) < abs(lat2) || lat2.isNaN
        if swapped {
            longitudeSign = -longitudeSign
            swap(&lat1, &lat2)
        }
        let latitudeSign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latitudeSign
        lat2 *= latitudeSign

        let point1 = reducedPoint(latitude: lat1)
        var point2 = reducedPoint(latitude: lat2)
        // When |β₂| = |β₁| make it exactly so: Lambda12 relies on the symmetry, and near it on whichever of
        // cos β₂ − cos β₁ or |sin β₂| + sin β₁ measures the difference better.
        if point1.cosBeta < -point1.sinBeta {
            if point2.cosBeta == point1.cosBeta {
                point2.sinBeta = Double(signOf: point2.sinBeta, magnitudeOf: point1.sinBeta)
            }
        } else if abs(point2.sinBeta) == -point1.sinBeta {
            point2.cosBeta = point1.cosBeta
        }
        let solver = InverseSolver(
            point1: point1,
            point2: point2,
            lambda12: lon12 * Degrees.radiansPerDegree,
            sinLambda12: sinLambda12,
            cosLambda12: cosLambda12
        )

        var solution: Solution
        // Point 1 at the pole, or both points in one meridian plane: try the meridian first.
        if lat1 == -90 || sinLambda12 == 0, let meridional = solver.meridional() {
            solution = meridional
        } else if point1.sinBeta == 0 && lon12Supplement >= f * 180 {
            // Both on the equator (point 1 is the farther from it) and not so nearly antipodal that a path
            // over the ellipsoid is shorter: the equator itself.
            solution = Solution(
                distance: WGS84.equatorialRadius * solver.lambda12,
                sinInitialAzimuth: 1,
                cosInitialAzimuth: 0,
                sinFinalAzimuth: 1,
                cosFinalAzimuth: 0
            )
        } else {
            solution = solver.general()
        }

        // Undo the canonical transformation.
        if swapped {
            swap(&solution.sinInitialAzimuth, &solution.sinFinalAzimuth)
            swap(&solution.cosInitialAzimuth, &solution.cosFinalAzimuth)
        }
        let swapSign: Double = swapped ? -1 : 1
        solution.sinInitialAzimuth *= swapSign * longitudeSign
        solution.cosInitialAzimuth *= swapSign * latitudeSign
        solution.sinFinalAzimuth *= swapSign * longitudeSign
        solution.cosFinalAzimuth *= swapSign * latitudeSign
        solution.distance += 0  // −0 to 0
        return solution
    }

    private static func reducedPoint(latitude: Double) -> ReducedPoint {
        let (sinPhi, cosPhi) = Degrees.sinCos(latitude)
        // tan β = (1 − f) tan φ
        let (sinBeta, cosBeta) = normalized(sinPhi * (1 - WGS84.flattening), cosPhi)
        // At a pole cos β is a tiny positive number, so the pole has a longitude and azimuths stay defined.
        return ReducedPoint(sinBeta: sinBeta, cosBeta: max(tiny, cosBeta))
    }

    /// The line along the meridian through point 1 (which may pass over a pole), or nil when that
    /// meridian is not the shortest path.
    private func meridional() -> Solution? {
        // Head from point 1 toward point 2's longitude, arriving heading north.
        let sinAlpha1 = sinLambda12
        let cosAlpha1 = cosLambda12
        // tan β = tan σ cos α
        let sinSigma1 = point1.sinBeta
        let cosSigma1 = cosAlpha1 * point1.cosBeta
        let sinSigma2 = point2.sinBeta
        let cosSigma2 = point2.cosBeta
        let sigma12 = atan2(
            y: max(0, cosSigma1 * sinSigma2 - sinSigma1 * cosSigma2) + 0,
            x: cosSigma1 * cosSigma2 + sinSigma1 * sinSigma2
        )
        var (distance, reducedLength) = lengths(
            epsilon: WGS84.thirdFlattening,  // ε at α₀ = 0
            sigma12: sigma12,
            sinSigma1: sinSigma1,
            cosSigma1: cosSigma1,
            sinSigma2: sinSigma2,
            cosSigma2: cosSigma2
        )
        // A negative reduced length means the line runs past the conjugate point of point 1, so it is not
        // the shortest; tiny arcs are exempt because rounding alone can make it negative.
        guard sigma12 < Self.machineEpsilon.squareRoot() || reducedLength >= 0 else { return nil }
        if sigma12 < 3 * Self.tiny || (sigma12 < Self.machineEpsilon && (distance < 0 || reducedLength < 0)) {
            distance = 0
        }
        return Solution(
            distance: distance * WGS84.polarRadius,
            sinInitialAzimuth: sinAlpha1,
            cosInitialAzimuth: cosAlpha1,
            sinFinalAzimuth: 0,
            cosFinalAzimuth: 1
        )
    }

    /// Any line that is neither meridional nor equatorial.
    private func general() -> Solution {
        switch startingEstimate() {
        case let .shortLine(sigma12, sphereScale, sinAlpha1, cosAlpha1, sinAlpha2, cosAlpha2):
            return Solution(
                distance: sigma12 * WGS84.polarRadius * sphereScale,
                sinInitialAzimuth: sinAlpha1,
                cosInitialAzimuth: cosAlpha1,
                sinFinalAzimuth: sinAlpha2,
                cosFinalAzimuth: cosAlpha2
            )
        case let .newton(sinAlpha1, cosAlpha1):
            let line = solveForAzimuth(sinAlpha1: sinAlpha1, cosAlpha1: cosAlpha1)
            let (distance, _) = lengths(
                epsilon: line.epsilon,
                sigma12: line.sigma12,
                sinSigma1: line.sinSigma1,
                cosSigma1: line.cosSigma1,
                sinSigma2: line.sinSigma2,
                cosSigma2: line.cosSigma2
            )
            return Solution(
                distance: distance * WGS84.polarRadius,
                sinInitialAzimuth: line.sinAlpha1,
                cosInitialAzimuth: line.cosAlpha1,
                sinFinalAzimuth: line.sinAlpha2,
                cosFinalAzimuth: line.cosAlpha2
            )
        }
    }

    /// Newton's method on α₁ for a zero longitude mismatch, inside a bracket that shrinks with every trial;
    /// when a Newton step is unusable (non-positive slope, or it would leave (0, π)) it bisects the bracket.
    private func solveForAzimuth(sinAlpha1 startSin: Double, cosAlpha1 startCos: Double) -> TrialLine {
        var (sinAlpha1, cosAlpha1) = (startSin, startCos)
        // The mismatch is increasing in α₁ and has one root in (0, π).
        var (lowSin, lowCos) = (Self.tiny, 1.0)
        var (highSin, highCos) = (Self.tiny, -1.0)
        var newtonConverging = false
        var bracketExhausted = false
        var iteration = 0
        while true {
            let line = trialLine(
                sinAlpha1: sinAlpha1,
                cosAlpha1: cosAlpha1,
                withDerivative: iteration < Self.newtonIterationLimit
            )
            let mismatch = line.longitudeMismatch
            // Written so that a NaN mismatch also stops.
            let tolerance = (newtonConverging ? 8 : 1) * Self.machineEpsilon
            if bracketExhausted || !(abs(mismatch) >= tolerance) || iteration == Self.iterationLimit {
                return line
            }
            // Tighten the bracket; cot α₁ falls as α₁ grows.
            let newtonPhaseOver = iteration > Self.newtonIterationLimit
            let cotAlpha1 = cosAlpha1 / sinAlpha1
            if mismatch > 0 && (newtonPhaseOver || cotAlpha1 > highCos / highSin) {
                (highSin, highCos) = (sinAlpha1, cosAlpha1)
            } else if mismatch < 0 && (newtonPhaseOver || cotAlpha1 < lowCos / lowSin) {
                (lowSin, lowCos) = (sinAlpha1, cosAlpha1)
            }
            iteration += 1
            if iteration < Self.newtonIterationLimit && line.derivative > 0 {
                let step = -mismatch / line.derivative
                if abs(step) < .pi {
                    let sinStep = sin(radians: step)
                    let cosStep = cos(radians: step)
                    let newSin = sinAlpha1 * cosStep + cosAlpha1 * sinStep
                    if newSin > 0 {
                        (sinAlpha1, cosAlpha1) = normalized(newSin, cosAlpha1 * cosStep - sinAlpha1 * sinStep)
                        // Where the slope vanishes convergence is only linear: accept a looser residual.
                        newtonConverging = abs(mismatch) <= 16 * Self.machineEpsilon
                        continue
                    }
                }
            }
            (sinAlpha1, cosAlpha1) = normalized((lowSin + highSin) / 2, (lowCos + highCos) / 2)
            newtonConverging = false
            bracketExhausted =
                abs(lowSin - sinAlpha1) + (lowCos - cosAlpha1) < Self.machineEpsilon
                || abs(sinAlpha1 - highSin) + (cosAlpha1 - highCos) < Self.machineEpsilon
        }
    }

    /// The first α₁: spherical trigonometry with the longitude difference, or, for nearly antipodal points
    /// where that fails, the astroid solution.
    private func startingEstimate() -> StartingEstimate {
        let f = WGS84.flattening
        let (sinBeta1, cosBeta1, sinBeta2, cosBeta2) = (point1.sinBeta, point1.cosBeta, point2.sinBeta, point2.cosBeta)
        let sinBeta12 = sinBeta2 * cosBeta1 - cosBeta2 * sinBeta1  // β₂ − β₁ in [0, π)
        let cosBeta12 = cosBeta2 * cosBeta1 + sinBeta2 * sinBeta1
        let sinBeta12Sum = sinBeta2 * cosBeta1 + cosBeta2 * sinBeta1  // β₂ + β₁ in (−π, 0]

        let isShort = cosBeta12 >= 0 && sinBeta12 < 0.5 && cosBeta2 * lambda12 < 0.5
        var sinOmega12 = sinLambda12
        var cosOmega12 = cosLambda12
        var sphereScale = Double.nan
        if isShort {
            // Scale the sphere to the ellipsoid at the mid parametric latitude.
            var sinBetaMidSquared = (sinBeta1 + sinBeta2) * (sinBeta1 + sinBeta2)
            sinBetaMidSquared /= sinBetaMidSquared + (cosBeta1 + cosBeta2) * (cosBeta1 + cosBeta2)
            sphereScale = (1 + WGS84.secondEccentricitySquared * sinBetaMidSquared).squareRoot()
            let omega12 = lambda12 / ((1 - f) * sphereScale)
            sinOmega12 = sin(radians: omega12)
            cosOmega12 = cos(radians: omega12)
        }

        var sinAlpha1 = cosBeta2 * sinOmega12
        var cosAlpha1 =
            cosOmega12 >= 0
            ? sinBeta12 + cosBeta2 * sinBeta1 * sinOmega12 * sinOmega12 / (1 + cosOmega12)
            : sinBeta12Sum - cosBeta2 * sinBeta1 * sinOmega12 * sinOmega12 / (1 - cosOmega12)
        let sinSigma12 = hypot(x: sinAlpha1, y: cosAlpha1)
        let cosSigma12 = sinBeta1 * sinBeta2 + cosBeta1 * cosBeta2 * cosOmega12

        if isShort && sinSigma12 < Self.shortLineArc {
            let sinAlpha2 = cosBeta1 * sinOmega12
            let cosAlpha2 =
                sinBeta12 - cosBeta1 * sinBeta2
                * (cosOmega12 >= 0 ? sinOmega12 * sinOmega12 / (1 + cosOmega12) : 1 - cosOmega12)
            let alpha2 = normalized(sinAlpha2, cosAlpha2)
            let alpha1 = normalizedAzimuth(sinAlpha1, cosAlpha1)
            return .shortLine(
                sigma12: atan2(y: sinSigma12, x: cosSigma12),
                sphereScale: sphereScale,
                sinAlpha1: alpha1.sin,
                cosAlpha1: alpha1.cos,
                sinAlpha2: alpha2.sin,
                cosAlpha2: alpha2.cos
            )
        }
        // Nearly antipodal, where the spherical estimate fails (the test is negated so that NaN input lands here
        // too, and comes out as NaN azimuths). In coordinates x (longitude) and y (latitude) scaled so that the
        // antipode of point 1 is the origin and the singular point is (−1, 0), α₁ solves an astroid equation.
        if !(cosSigma12 >= 0 || sinSigma12 >= 6 * WGS84.thirdFlattening * .pi * cosBeta1 * cosBeta1) {
            let lambda12FromAntipode = atan2(y: -sinLambda12, x: -cosLambda12)  // λ₁₂ − π
            let k2 = sinBeta1 * sinBeta1 * WGS84.secondEccentricitySquared
            let epsilon = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let longitudeScale = f * cosBeta1 * KarneySeries.a3(epsilon) * .pi
            let latitudeScale = longitudeScale * cosBeta1
            let x = lambda12FromAntipode / longitudeScale
            let y = sinBeta12Sum / latitudeScale
            if y > -200 * Self.machineEpsilon && x > -1 - 1000 * Self.machineEpsilon.squareRoot() {
                // On (or right by) the cut: the azimuth follows from x alone.
                sinAlpha1 = min(1, -x)
                cosAlpha1 = -(1 - sinAlpha1 * sinAlpha1).squareRoot()
            } else {
                // Estimate ω₁₂ from the astroid, then α₁ from the spherical formula (fewer Newton steps than
                // taking α₁ from the astroid directly). Work with π − ω₁₂, which is small.
                let k = Self.astroidRoot(x: x, y: y)
                let omega12FromAntipode = longitudeScale * (-x * k / (1 + k))
                let sinOmega12 = sin(radians: omega12FromAntipode)
                let cosOmega12 = -cos(radians: omega12FromAntipode)
                sinAlpha1 = cosBeta2 * sinOmega12
                cosAlpha1 = sinBeta12Sum - cosBeta2 * sinBeta1 * sinOmega12 * sinOmega12 / (1 - cosOmega12)
            }
        }
        let alpha1 = normalizedAzimuth(sinAlpha1, cosAlpha1)
        return .newton(sinAlpha1: alpha1.sin, cosAlpha1: alpha1.cos)
    }

    /// The azimuth (sin, cos) normalized, or due east if the estimate left (0, π); NaN passes through.
    private func normalizedAzimuth(_ sinAlpha: Double, _ cosAlpha: Double) -> (sin: Double, cos: Double) {
        sinAlpha <= 0 ? (1, 0) : normalized(sinAlpha, cosAlpha)
    }

    /// Follows the geodesic that leaves point 1 at azimuth α₁ to point 2's latitude (Karney's Lambda12).
    private func trialLine(sinAlpha1: Double, cosAlpha1 trialCos: Double, withDerivative: Bool) -> TrialLine {
        let f = WGS84.flattening
        let (sinBeta1, cosBeta1, sinBeta2, cosBeta2) = (point1.sinBeta, point1.cosBeta, point2.sinBeta, point2.cosBeta)
        // Due north or south from the equator is a meridian, handled elsewhere; nudge off the degeneracy.
        let cosAlpha1 = sinBeta1 == 0 && trialCos == 0 ? -Self.tiny : trialCos

        // α₀ is the azimuth where the line crosses the equator: sin α₀ = sin α₁ cos β₁ (Clairaut).
        let sinAlpha0 = sinAlpha1 * cosBeta1
        let cosAlpha0 = hypot(x: cosAlpha1, y: sinAlpha1 * sinBeta1)
        // tan β = tan σ cos α and tan ω = sin α₀ tan σ; ω's (sin, cos) need no normalization for atan2.
        let sinOmega1 = sinAlpha0 * sinBeta1
        let cosOmega1 = cosAlpha1 * cosBeta1
        let (sinSigma1, cosSigma1) = normalized(sinBeta1, cosOmega1)

        // α₂ from Clairaut, written to stay exact in the symmetric case |β₂| = |β₁|.
        let sinAlpha2 = cosBeta2 != cosBeta1 ? sinAlpha0 / cosBeta2 : sinAlpha1
        let cosAlpha2 =
            cosBeta2 != cosBeta1 || abs(sinBeta2) != -sinBeta1
            ? ((cosAlpha1 * cosBeta1) * (cosAlpha1 * cosBeta1)
                + (cosBeta1 < -sinBeta1
                    ? (cosBeta2 - cosBeta1) * (cosBeta1 + cosBeta2) : (sinBeta1 - sinBeta2) * (sinBeta1 + sinBeta2)))
                .squareRoot() / cosBeta2
            : abs(cosAlpha1)
        let sinOmega2 = sinAlpha0 * sinBeta2
        let cosOmega2 = cosAlpha2 * cosBeta2
        let (sinSigma2, cosSigma2) = normalized(sinBeta2, cosOmega2)

        let sigma12 = atan2(
            y: max(0, cosSigma1 * sinSigma2 - sinSigma1 * cosSigma2) + 0,
            x: cosSigma1 * cosSigma2 + sinSigma1 * sinSigma2
        )
        let sinOmega12 = max(0, cosOmega1 * sinOmega2 - sinOmega1 * cosOmega2) + 0
        let cosOmega12 = cosOmega1 * cosOmega2 + sinOmega1 * sinOmega2
        // ω₁₂ − λ₁₂ in one atan2, accurate when both are near π.
        let eta = atan2(
            y: sinOmega12 * cosLambda12 - cosOmega12 * sinLambda12,
            x: cosOmega12 * cosLambda12 + sinOmega12 * sinLambda12
        )

        let k2 = cosAlpha0 * cosAlpha0 * WGS84.secondEccentricitySquared
        let epsilon = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3 = KarneySeries.c3(epsilon)
        let b312 = c3.sum(sin: sinSigma2, cos: cosSigma2) - c3.sum(sin: sinSigma1, cos: cosSigma1)
        // λ₁₂ = ω₁₂ − f sin α₀ A₃ (σ₁₂ + B₃₁₂)
        let mismatch = eta - f * KarneySeries.a3(epsilon) * sinAlpha0 * (sigma12 + b312)

        var derivative = Double.nan
        if withDerivative {
            if cosAlpha2 == 0 {
                derivative = -2 * (1 - f) * dn1 / sinBeta1
            } else {
                let (_, reducedLength) = lengths(
                    epsilon: epsilon,
                    sigma12: sigma12,
                    sinSigma1: sinSigma1,
                    cosSigma1: cosSigma1,
                    sinSigma2: sinSigma2,
                    cosSigma2: cosSigma2
                )
                // dλ₁₂/dα₁ = m₁₂ / (a cos α₂ cos φ₂), in auxiliary-sphere terms.
                derivative = reducedLength * (1 - f) / (cosAlpha2 * cosBeta2)
            }
        }
        return TrialLine(
            sinAlpha1: sinAlpha1,
            cosAlpha1: trialCos,
            longitudeMismatch: mismatch,
            derivative: derivative,
            sinAlpha2: sinAlpha2,
            cosAlpha2: cosAlpha2,
            sigma12: sigma12,
            sinSigma1: sinSigma1,
            cosSigma1: cosSigma1,
            sinSigma2: sinSigma2,
            cosSigma2: cosSigma2,
            epsilon: epsilon
        )
    }

    /// Distance s₁₂ and reduced length m₁₂ along the arc σ₁ → σ₂, both in units of b.
    private func lengths(
        epsilon: Double,
        sigma12: Double,
        sinSigma1: Double,
        cosSigma1: Double,
        sinSigma2: Double,
        cosSigma2: Double
    ) -> (distance: Double, reducedLength: Double) {
        let a1MinusOne = KarneySeries.a1MinusOne(epsilon)
        let a2MinusOne = KarneySeries.a2MinusOne(epsilon)
        let c1 = KarneySeries.c1(epsilon)
        let c2 = KarneySeries.c2(epsilon)
        let a1 = 1 + a1MinusOne
        let a2 = 1 + a2MinusOne
        let b1 = c1.sum(sin: sinSigma2, cos: cosSigma2) - c1.sum(sin: sinSigma1, cos: cosSigma1)
        let b2 = c2.sum(sin: sinSigma2, cos: cosSigma2) - c2.sum(sin: sinSigma1, cos: cosSigma1)
        // J₁₂ = I₁(σ₁₂) − I₂(σ₁₂), with the secular part A₁ − A₂ formed without cancellation.
        let j12 = (a1MinusOne - a2MinusOne) * sigma12 + (a1 * b1 - a2 * b2)
        // The products are grouped so that coincident points cancel exactly.
        let reducedLength = dn2 * (cosSigma1 * sinSigma2) - dn1 * (sinSigma1 * cosSigma2) - cosSigma1 * cosSigma2 * j12
        return (a1 * (sigma12 + b1), reducedLength)
    }

    /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 in closed form.
    private static func astroidRoot(x: Double, y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        // y = 0 with |x| ≤ 1: the root is 0.
        guard !(q == 0 && r <= 0) else { return 0 }
        // The cubic's resolvent, multiplied through by r³ (S) and r (T) so r = 0 divides nothing.
        let s = p * q / 4
        let r2 = r * r
        let r3 = r * r2
        // Zero on the evolute p^(1/3) + q^(1/3) = 1.
        let discriminant = s * (s + 2 * r3)
        var u = r
        if discriminant >= 0 {
            // The sign of the root that maximizes |T³| avoids cancellation without changing u.
            var t3 = s + r3
            t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()
            let t = cubeRoot(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // Three real roots: take the one free of cancellation (here r < 0).
            let angle = atan2(y: (-discriminant).squareRoot(), x: -(s + r3))
            u += 2 * r * cos(radians: angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uPlusV = u < 0 ? q / (v - u) : u + v  // positive either way, without cancellation
        let w = (uPlusV - q) / (2 * v)
        return uPlusV / ((uPlusV + w * w).squareRoot() + w)
    }
}

/// (x, y) scaled to unit length: the sine and cosine of its direction.
private func normalized(_ x: Double, _ y: Double) -> (sin: Double, cos: Double) {
    let length = hypot(x: x, y: y)
    return (x / length, y / length)
}
