"""What the reliability drivers share: their FIGURE and CHECK FAILED lines, the exit status they
end with, and the ISO-8601 times travelctl prints as milliseconds."""
import calendar
import sys
import time

failures = 0


def failed(message):
    """A check that did not hold: said at once, and the run ends with status 1."""
    global failures
    failures += 1
    print(f"CHECK FAILED: {message}", flush=True)


def figure(name, value, unit=""):
    print(f"FIGURE {name}={value}{' ' + unit if unit else ''}", flush=True)


def milliseconds(stamp):
    """`2026-11-24T19:10:02.300Z` as milliseconds since 1970."""
    return calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")) * 1000 + int(stamp[20:23])


def finish():
    """Exits 1 if a check failed, else 0."""
    sys.exit(1 if failures else 0)
