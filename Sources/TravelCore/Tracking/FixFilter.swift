/// The quality gate between the receiver and the trip detector (DOMAIN.md, "accepted fix").
///
/// A fix is accepted when it has a 2D/3D position and a date, its error estimate is within
/// bounds, its time moves forward, it is not impossibly far from the last accepted fix and not
/// in the future of a trusted clock. Every rejection is counted by reason.
public struct FixFilter: Sendable {
    public let configuration: TrackingConfiguration
    /// Rejections so far, by reason.
    public private(set) var rejections: [FixRejection: Int] = [:]
    public private(set) var accepted = 0

    /// The last accepted fix: what "forward in time" and "no impossible jump" compare with.
    private(set) var last: (time: UTCTime, coordinate: Coordinate)?
    /// Consecutive jump rejections: if the receiver keeps insisting, the earlier fix was the
    /// outlier (or the vehicle was moved while off), so the filter re-anchors.
    private var jumpsInARow = 0
    private static let jumpsBeforeReanchoring = 5

    public init(configuration: TrackingConfiguration) {
        self.configuration = configuration
    }

    /// Resumes after a restart from the last accepted fix.
    init(configuration: TrackingConfiguration, last: (time: UTCTime, coordinate: Coordinate)?) {
        self.configuration = configuration
        self.last = last
    }

    /// Checks `fix`; returns `nil` when accepted, else why not. `referenceTime` is a trusted
    /// clock (the daemon's, once disciplined by GPS), or `nil` when there is none (imports).
    public mutating func check(_ fix: Fix, referenceTime: UTCTime? = nil) -> FixRejection? {
        let verdict = evaluate(fix, referenceTime: referenceTime)
        if let verdict {
            rejections[verdict, default: 0] += 1
        } else {
            accepted += 1
        }
        return verdict
    }

    private mutating func evaluate(_ fix: Fix, referenceTime: UTCTime?) -> FixRejection? {
        guard fix.mode >= .twoD, let latitude = fix.latitude, let longitude = fix.longitude,
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else { return .noPosition }
        guard let time = fix.time else { return .noTime }
        if let referenceTime, time.seconds(since: referenceTime) > configuration.maximumFutureSkew {
            return .inFuture
        }
        if let error = fix.horizontalError {
            if error > configuration.maximumHorizontalError { return .inaccurate }
        } else if let hdop = fix.hdop, hdop > configuration.maximumHDOP {
            return .inaccurate
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        if let last {
            guard time > last.time else { return .timeNotForward }
            let elapsed = time.seconds(since: last.time)
            // A threshold test: the local approximation is plenty, and far cheaper.
            let distance = LocalFrame(at: coordinate).distance(to: last.coordinate)
            // Allow for the position error of both fixes on top of the speed limit.
            let slack = 2 * (fix.horizontalError ?? 10)
            if distance > configuration.maximumSpeed * elapsed + slack {
                jumpsInARow += 1
                if jumpsInARow < Self.jumpsBeforeReanchoring { return .impossibleJump }
            }
        }
        jumpsInARow = 0
        last = (time, coordinate)
        return nil
    }
}
