#!/usr/bin/env bash
# Regenerates Sources/TravelReport/Assets/basemap.geojson, the report's map background: the
# country borders and coastlines of Natural Earth's 1:110m "Admin 0 – Countries" (public domain,
# https://www.naturalearthdata.com/about/terms-of-use/), as the `naturalearth_lowres` layer
# shipped inside the PyPI wheel of geopandas 0.14.4. Only each country's name is kept, and
# coordinates are rounded to 0.01° (about 1 km, finer than the 1:110m data itself).
# Needs pip (python3-pip) and ogr2ogr (Debian gdal-bin); writes nothing else in the tree.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/Sources/TravelReport/Assets/basemap.geojson"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

python3 -m pip download --quiet --no-deps --dest "$scratch" geopandas==0.14.4
(cd "$scratch" && python3 -m zipfile -e geopandas-0.14.4-py3-none-any.whl wheel)
layer="$scratch/wheel/geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp"

ogr2ogr -f GeoJSON "$scratch/basemap.geojson" "$layer" \
    -select name -simplify 0.02 \
    -lco COORDINATE_PRECISION=2 -lco RFC7946=YES -lco WRITE_NAME=NO
# One feature a line, no spaces: small, and diffs show which country changed.
python3 - "$scratch/basemap.geojson" "$out" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
features = [
    {"type": "Feature", "properties": {"name": f["properties"]["name"]}, "geometry": f["geometry"]}
    for f in sorted(data["features"], key=lambda f: f["properties"]["name"])
]
with open(sys.argv[2], "w") as out:
    out.write('{"type":"FeatureCollection","features":[\n')
    out.write(",\n".join(json.dumps(f, separators=(",", ":"), ensure_ascii=False) for f in features))
    out.write("\n]}\n")
PY
echo "wrote $out ($(wc -c <"$out") bytes, $(grep -c "\"Feature\"" "$out") countries)"
