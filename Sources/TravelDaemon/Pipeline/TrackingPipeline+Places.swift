internal import Logging
package import TravelCore
internal import TravelStore

extension TrackingPipeline {
    /// Reads the zones and POIs again (SIGHUP, or a change on the control socket once
    /// committed): the next fix is checked against them, each zone from its stored state.
    /// `pois`: the stored POIs indexed already, off this actor; `nil` reads them here.
    /// A failure keeps the ones watched.
    package func reloadPlaces(pois: POIIndex? = nil) {
        do {
            let (zones, pois) = try recorder.reloadPlaces(pois: pois)
            logger.info("watching \(zones) zone\(zones == 1 ? "" : "s") and \(pois) POI\(pois == 1 ? "" : "s")")
        } catch {
            logger.error("cannot read the zones and POIs again, keeping the ones watched: \(error)")
        }
    }

    /// Reads the zones again, as `reloadPlaces`, and keeps the POIs watched: they did not change.
    package func reloadZones() {
        reloadPlaces(pois: recorder.engine.nearby.index)
    }

    /// GPS time now, carried on the monotonic clock since the last fix; `nil` before the first.
    package func gpsNow() -> UTCTime? {
        clock.now(monotonicNanoseconds: SystemClocks.now().monotonicNanoseconds)
    }
}
