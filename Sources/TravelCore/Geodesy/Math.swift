// The platform import of TravelCore: libm's elementary functions here, nothing else (no I/O, no
// Foundation); the C library's error table is TravelFormats' (SystemErrorText.swift).
// The wrappers carry argument labels so they cannot be confused with, or recurse into, the C names.
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Sine of an angle in radians.
@inline(__always) func sin(radians x: Double) -> Double { sin(x) }

/// Cosine of an angle in radians.
@inline(__always) func cos(radians x: Double) -> Double { cos(x) }

/// Angle in radians, in [−π, π], of the vector (x, y); keeps the quadrant that y / x loses.
@inline(__always) func atan2(y: Double, x: Double) -> Double { atan2(y, x) }

/// √(x² + y²) without intermediate overflow and with half the rounding error of the naive formula.
@inline(__always) func hypot(x: Double, y: Double) -> Double { hypot(x, y) }

/// The real cube root, negative for negative x.
@inline(__always) func cubeRoot(_ x: Double) -> Double { cbrt(x) }
