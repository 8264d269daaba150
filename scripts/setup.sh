#!/usr/bin/env bash
# Installs what building and testing TravelCompanion needs, idempotently: Debian packages
# (only the missing ones, so a ready machine does no apt work) and the Swift toolchain check.
# tzdata: the time zones of [Journeys] TimeZone (/usr/share/zoneinfo), read at run time, never bundled.
# libmosquitto-dev, libcurl4-openssl-dev: the uplink's MQTT and HTTP clients; mosquitto and
# mosquitto-clients: the real broker and subscriber of its tests.
# openssl: the throwaway certificates of the uplink tests' TLS broker and https server (OpenSSL's CLI, Apache-2.0).
# chromium: the report tests render `travelctl report` headless, offline (docs/report.md).
set -euo pipefail

packages=(libsqlite3-dev libsystemd-dev pkg-config gpsd gpsd-clients socat sqlite3 gpsbabel gdal-bin libxml2-utils faketime python3-pip dunst xvfb imagemagick libnotify-bin dbus-x11 systemd-container tzdata chromium libmosquitto-dev mosquitto mosquitto-clients libcurl4-openssl-dev openssl)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=()
    [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Python varlink (PyPI), the Varlink client nobody here wrote, for the control socket tests.
if ! /usr/bin/python3 -c "import varlink" 2>/dev/null; then
    echo "setup: installing python varlink 31.0.0"
    sudo_cmd=()
    [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" /usr/bin/python3 -m pip install --quiet --break-system-packages varlink==31.0.0
fi

# The Debian gpsd package enables a system gpsd socket; our tests start their own gpsd on
# private ports and must not depend on or disturb it.

if ! command -v swift >/dev/null && [[ ! -x /opt/swift/usr/bin/swift ]]; then
    echo "setup: no Swift toolchain found (need Swift 6.2 or newer on PATH or in /opt/swift)" >&2
    exit 1
fi
