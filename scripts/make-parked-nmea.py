#!/usr/bin/env python3
"""One hour of 1 s NMEA epochs (RMC + GGA) of a receiver parked at one place, for the benchmarks.

Usage: make-parked-nmea.py OUT [--alternate]
--alternate: every other epoch has no fix, so the daemon logs an event (fix acquired, fix lost)
for every epoch.
"""
import sys


def sentence(body):
    checksum = 0
    for c in body.encode():
        checksum ^= c
    return f"${body}*{checksum:02X}\r\n"


out, alternate = sys.argv[1], "--alternate" in sys.argv[2:]
with open(out, "w") as log:
    for second in range(3600):
        t = f"{8 + second // 3600:02d}{second // 60 % 60:02d}{second % 60:02d}.00"
        if alternate and second % 2:
            log.write(sentence(f"GPRMC,{t},V,,,,,,,180520,,,N"))
            log.write(sentence(f"GPGGA,{t},,,,,0,00,,,,,,,"))
        else:
            log.write(sentence(f"GPRMC,{t},A,4516.405,N,01342.828,E,0.0,0.0,180520,,,A"))
            log.write(sentence(f"GPGGA,{t},4516.405,N,01342.828,E,1,08,0.9,30.0,M,45.0,M,,"))
