/// TravelCompanion's version, the one place it is written: both executables' `--version`, the
/// control socket's `GetInfo`, the Traccar uplink's `User-Agent`, and the .deb, which
/// `scripts/build-deb.sh` names from `travelctl --version` after checking it against
/// `packaging/deb/changelog`.
package let travelCompanionVersion = "0.1.0"
