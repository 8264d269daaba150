/// The WGS84 ellipsoid, the datum of every GNSS fix.
enum WGS84 {
    /// Equatorial radius a, metres.
    static let equatorialRadius = 6_378_137.0
    /// Flattening f = (a − b) / a.
    static let flattening = 1 / 298.257_223_563
    /// Polar radius b = a(1 − f), metres: the radius of Karney's auxiliary sphere.
    static let polarRadius = equatorialRadius * (1 - flattening)
    /// e² = f(2 − f), first eccentricity squared.
    static let eccentricitySquared = flattening * (2 - flattening)
    /// e′² = e² / (1 − e²), second eccentricity squared.
    static let secondEccentricitySquared = eccentricitySquared / ((1 - flattening) * (1 - flattening))
    /// n = f / (2 − f), third flattening: the small parameter of the A3 and C3 series.
    static let thirdFlattening = flattening / (2 - flattening)
}

/// Σ cₗ sin(2lσ) for l = 1…6: the form of every correction series in Karney's method.
struct SineSeries {
    var c1: Double
    var c2: Double
    var c3: Double
    var c4: Double
    var c5: Double
    var c6: Double

    /// The sum at the angle σ given by its sine and cosine, by Clenshaw's recurrence
    /// (one sin/cos pair instead of six, and no angle ever formed).
    func sum(sin: Double, cos: Double) -> Double {
        let twiceCos2Sigma = 2 * (cos - sin) * (cos + sin)
        let b6 = c6
        let b5 = c5 + twiceCos2Sigma * b6
        let b4 = c4 + twiceCos2Sigma * b5 - b6
        let b3 = c3 + twiceCos2Sigma * b4 - b5
        let b2 = c2 + twiceCos2Sigma * b3 - b4
        let b1 = c1 + twiceCos2Sigma * b2 - b3
        return 2 * sin * cos * b1
    }
}

/// The series of Karney, "Algorithms for geodesics" (J. Geodesy 2013), truncated at order 6.
///
/// ε = (√(1 + k²) − 1) / (√(1 + k²) + 1) with k = e′ cos α₀ is at most n ≈ 0.0017 on WGS84, so the first
/// neglected terms are below ε⁷ ≈ 4e-20: the series are exact in double precision.
enum KarneySeries {
    /// A₁ − 1, for the distance s = b I₁(σ). Kept as A₁ − 1 so that A₁ − A₂ does not cancel.
    static func a1MinusOne(_ epsilon: Double) -> Double {
        let epsilon2 = epsilon * epsilon
        let t = epsilon2 * (1.0 / 4 + epsilon2 * (1.0 / 64 + epsilon2 / 256))
        return (t + epsilon) / (1 - epsilon)
    }

    /// C₁ₗ, the distance series: I₁(σ) = A₁(σ + Σ C₁ₗ sin 2lσ).
    static func c1(_ epsilon: Double) -> SineSeries {
        let epsilon2 = epsilon * epsilon
        let epsilon3 = epsilon2 * epsilon
        let epsilon4 = epsilon2 * epsilon2
        return SineSeries(
            c1: epsilon * (-1.0 / 2 + epsilon2 * (3.0 / 16 - epsilon2 / 32)),
            c2: epsilon2 * (-1.0 / 16 + epsilon2 * (1.0 / 32 - epsilon2 * 9 / 2048)),
            c3: epsilon3 * (-1.0 / 48 + epsilon2 * 3 / 256),
            c4: epsilon4 * (-5.0 / 512 + epsilon2 * 3 / 512),
            c5: epsilon4 * epsilon * (-7.0 / 1280),
            c6: epsilon4 * epsilon2 * (-7.0 / 2048)
        )
    }

    /// C′₁ₗ: the reversion σ = τ + Σ C′₁ₗ sin 2lτ, which turns a distance into an arc (direct problem).
    static func c1Reverted(_ epsilon: Double) -> SineSeries {
        let epsilon2 = epsilon * epsilon
        let epsilon3 = epsilon2 * epsilon
        let epsilon4 = epsilon2 * epsilon2
        return SineSeries(
            c1: epsilon * (1.0 / 2 + epsilon2 * (-9.0 / 32 + epsilon2 * 205 / 1536)),
            c2: epsilon2 * (5.0 / 16 + epsilon2 * (-37.0 / 96 + epsilon2 * 1335 / 4096)),
            c3: epsilon3 * (29.0 / 96 - epsilon2 * 75 / 128),
            c4: epsilon4 * (539.0 / 1536 - epsilon2 * 2391 / 2560),
            c5: epsilon4 * epsilon * (3467.0 / 7680),
            c6: epsilon4 * epsilon2 * (38081.0 / 61440)
        )
    }

    /// A₂ − 1, from A₂ = (1 − ε)(1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256), for the reduced length that drives Newton's method.
    static func a2MinusOne(_ epsilon: Double) -> Double {
        let epsilon2 = epsilon * epsilon
        let t = epsilon2 * (1.0 / 4 + epsilon2 * (9.0 / 64 + epsilon2 * 25 / 256))
        return t - epsilon * (1 + t)  // (1 − ε)(1 + t) − 1
    }

    /// C₂ₗ, the reduced-length series: I₂(σ) = A₂(σ + Σ C₂ₗ sin 2lσ).
    static func c2(_ epsilon: Double) -> SineSeries {
        let epsilon2 = epsilon * epsilon
        let epsilon3 = epsilon2 * epsilon
        let epsilon4 = epsilon2 * epsilon2
        return SineSeries(
            c1: epsilon * (1.0 / 2 + epsilon2 * (1.0 / 16 + epsilon2 / 32)),
            c2: epsilon2 * (3.0 / 16 + epsilon2 * (1.0 / 32 + epsilon2 * 35 / 2048)),
            c3: epsilon3 * (5.0 / 48 + epsilon2 * 5 / 256),
            c4: epsilon4 * (35.0 / 512 + epsilon2 * 7 / 512),
            c5: epsilon4 * epsilon * (63.0 / 1280),
            c6: epsilon4 * epsilon2 * (77.0 / 2048)
        )
    }

    /// A₃: the longitude correction λ = ω − f sin α₀ I₃(σ) with I₃ = A₃(σ + Σ C₃ₗ sin 2lσ).
    static func a3(_ epsilon: Double) -> Double {
        let n = WGS84.thirdFlattening
        // The coefficients of ε¹…ε⁵, polynomials in n.
        let order1 = (1 - n) / 2
        let order2 = (2 + n * (1 - 3 * n)) / 8
        let order3 = (1 + n * (3 + n)) / 16
        let order4 = (3 + 2 * n) / 64
        let order5 = 3.0 / 128
        return 1 - epsilon * (order1 + epsilon * (order2 + epsilon * (order3 + epsilon * (order4 + epsilon * order5))))
    }

    /// C₃ₗ, l = 1…5; the sixth term is beyond order 6 and left at zero.
    static func c3(_ epsilon: Double) -> SineSeries {
        let n = WGS84.thirdFlattening
        let n2 = n * n
        let epsilon2 = epsilon * epsilon
        let epsilon3 = epsilon2 * epsilon
        let epsilon4 = epsilon2 * epsilon2
        let epsilon5 = epsilon4 * epsilon
        let c31 =
            (1 - n) / 4 * epsilon + (1 - n2) / 8 * epsilon2 + (3 + 3 * n - n2) / 64 * epsilon3
            + (5 + 2 * n) / 128 * epsilon4 + 3.0 / 128 * epsilon5
        let c32 =
            (2 - 3 * n + n2) / 32 * epsilon2 + (3 - 2 * n - 3 * n2) / 64 * epsilon3 + (3 + n) / 128 * epsilon4
            + 5.0 / 256 * epsilon5
        let c33 = (5 - 9 * n + 5 * n2) / 192 * epsilon3 + (9 - 10 * n) / 384 * epsilon4 + 7.0 / 512 * epsilon5
        let c34 = (7 - 14 * n) / 512 * epsilon4 + 7.0 / 512 * epsilon5
        let c35 = 21.0 / 2560 * epsilon5
        return SineSeries(c1: c31, c2: c32, c3: c33, c4: c34, c5: c35, c6: 0)
    }
}
