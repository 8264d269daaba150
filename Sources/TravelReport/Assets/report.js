// travelctl report: draws the embedded history (#report-data, see docs/report.md) with Leaflet and
// Chart.js. Everything is in this file; nothing is fetched. When done, #report-check holds a
// summary of what was drawn, which the end-to-end test reads.
(function () {
  "use strict";
  // Script errors after the first drawing (a zoom, a click), for the check.
  var errors = [];
  window.addEventListener("error", function (event) { errors.push(String(event.message)); });
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var basemap = JSON.parse(document.getElementById("basemap").textContent);
  var colours = { local: "#2e9e44", day: "#f08a00", "multi-day": "#2563c9" };
  var untyped = "#888888";
  var scale = 100000;

  function escape(text) {
    return String(text === null || text === undefined ? "" : text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }
  var zoneFormat = null;
  try {
    zoneFormat = new Intl.DateTimeFormat("en-GB", {
      timeZone: data.time_zone, year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    });
  } catch (e) { zoneFormat = null; }
  function when(iso) {
    if (!iso) return "ongoing";
    if (!zoneFormat) return iso.slice(0, 16).replace("T", " ") + " UTC";
    var parts = {};
    zoneFormat.formatToParts(new Date(iso)).forEach(function (p) { parts[p.type] = p.value; });
    return parts.year + "-" + parts.month + "-" + parts.day + " " + parts.hour + ":" + parts.minute;
  }
  function km(metres) { return (metres / 1000).toFixed(1) + " km"; }
  function place(name, lat, lon) {
    return name ? escape(name) : lat.toFixed(5) + ", " + lon.toFixed(5);
  }

  document.title = data.title;
  document.getElementById("title").textContent = data.title;
  document.getElementById("period").textContent = data.from
    ? "From " + when(data.from) + " until " + when(data.until) + " (" + data.time_zone + ")"
    : "No trips in this report.";

  // The map: Natural Earth's countries under the routes, no tiles.
  // No fading: POI names taken off at a zoom leave the page at once.
  var map = L.map("map", { preferCanvas: true, worldCopyJump: false, minZoom: 2, fadeAnimation: false });
  L.control.scale({ imperial: false }).addTo(map);
  // Panes, bottom to top: the countries (where tiles would be), the heatmap, then Leaflet's
  // overlay pane (z-index 400) with the routes and markers.
  map.createPane("basemap").style.zIndex = 200;
  map.createPane("heat").style.zIndex = 350;
  var countries = L.geoJSON(basemap, {
    style: { color: "#8a8a8a", weight: 1, fillColor: "#f4f1e8", fillOpacity: 1 },
    interactive: false, pane: "basemap", renderer: L.canvas({ pane: "basemap" })
  }).addTo(map);

  var routes = L.layerGroup();
  var ends = L.layerGroup();
  var bounds = L.latLngBounds([]);
  data.trips.forEach(function (trip) {
    var points = [];
    var lat = 0, lon = 0;
    for (var i = 0; i + 1 < trip.route.length; i += 2) {
      lat += trip.route[i];
      lon += trip.route[i + 1];
      points.push([lat / scale, lon / scale]);
    }
    var details = "<b>Trip " + trip.id + "</b> (" + (trip.type || "no type yet") + ")<br>" +
      when(trip.start) + " → " + when(trip.end) + "<br>" +
      place(trip.start_place, trip.start_lat, trip.start_lon) + " → " +
      place(trip.end_place, trip.end_lat, trip.end_lon) + "<br>" +
      km(trip.distance_m) + ", " + escape(trip.duration) +
      (trip.journey_id !== null ? "<br>journey " + trip.journey_id : "");
    if (points.length > 1) {
      var line = L.polyline(points, { color: colours[trip.type] || untyped, weight: 4, opacity: 0.9 });
      line.bindPopup(details);
      line.tripID = trip.id;
      routes.addLayer(line);
      bounds.extend(line.getBounds());
    }
    ends.addLayer(L.circleMarker([trip.start_lat, trip.start_lon], {
      radius: 5, color: "#2e9e44", weight: 2, fillColor: "#fff", fillOpacity: 1
    }).bindPopup("<b>Start</b> of trip " + trip.id + ": " +
      place(trip.start_place, trip.start_lat, trip.start_lon) + "<br>" + when(trip.start)));
    if (trip.end) {
      ends.addLayer(L.circleMarker([trip.end_lat, trip.end_lon], {
        radius: 5, color: "#d62728", weight: 2, fillColor: "#fff", fillOpacity: 1
      }).bindPopup("<b>End</b> of trip " + trip.id + ": " +
        place(trip.end_place, trip.end_lat, trip.end_lon) + "<br>" + when(trip.end)));
    }
    bounds.extend([trip.start_lat, trip.start_lon]);
  });

  // The user's zones: circles and polygons, named on the map (a dashed outline, a light fill).
  var zoneColour = "#6a3d9a";
  var zones = L.layerGroup();
  data.zones.forEach(function (zone) {
    var style = { color: zoneColour, weight: 2, opacity: 0.9, dashArray: "6 4", fillColor: zoneColour, fillOpacity: 0.08 };
    var shape = zone.kind === "circle"
      ? L.circle([zone.lat, zone.lon], L.extend({ radius: zone.radius_m }, style))
      : L.geoJSON(zone.geometry, { style: style });
    shape.bindTooltip(escape(zone.name), { permanent: true, direction: "center", className: "zone-label", opacity: 1 });
    shape.bindPopup("<b>Zone " + escape(zone.name) + "</b>" + (zone.role ? " (" + escape(zone.role) + ")" : "") +
      (zone.kind === "circle" ? "<br>radius " + Math.round(zone.radius_m) + " m" : ""));
    zones.addLayer(shape);
  });

  // POIs near the routes (the data holds only those): small circles on a canvas under the routes,
  // at most one per 16-pixel square at each zoom (the first by id: zoom in for the others), name
  // and category on click, names written beside them from street zoom on.
  map.createPane("pois").style.zIndex = 380;
  var poiRenderer = L.canvas({ pane: "pois", padding: 0.5 });
  var poiMarkers = data.pois.map(function (poi) {
    var marker = L.circleMarker([poi.lat, poi.lon], {
      pane: "pois", renderer: poiRenderer, radius: 4, color: "#fff", weight: 1, fillColor: "#1f6f8b", fillOpacity: 0.9
    }).bindPopup("<b>" + escape(poi.name) + "</b>" + (poi.category ? "<br>" + escape(poi.category) : ""));
    marker.poi = poi;
    return marker;
  });
  var pois = L.layerGroup();
  var poiSpacing = 16, poiZoom = null;
  function spreadPOIs() {
    var zoom = map.getZoom();
    if (zoom === poiZoom) return;
    poiZoom = zoom;
    var taken = {};
    pois.clearLayers();
    poiMarkers.forEach(function (marker) {
      var point = map.project(marker.getLatLng(), zoom);
      var square = Math.floor(point.x / poiSpacing) + ":" + Math.floor(point.y / poiSpacing);
      if (taken[square]) return;
      taken[square] = true;
      marker.setRadius(zoom < 11 ? 3 : 4);
      pois.addLayer(marker);
    });
  }
  var poiNames = L.layerGroup();
  var poiNameZoom = 14, poiNameLimit = 150;
  function showPOINames() {
    poiNames.clearLayers();
    if (!map.hasLayer(pois) || map.getZoom() < poiNameZoom) return;
    var view = map.getBounds(), shown = 0;
    pois.eachLayer(function (marker) {
      if (shown >= poiNameLimit || !view.contains(marker.getLatLng())) return;
      poiNames.addLayer(L.tooltip({ permanent: true, direction: "right", offset: [4, 0], className: "poi-label" })
        .setLatLng(marker.getLatLng()).setContent(escape(marker.poi.name)));
      shown++;
    });
  }

  // Time spent per place: a canvas over the map, one soft disc per cell of the grid.
  var HeatLayer = L.Layer.extend({
    initialize: function (heat) {
      this.heat = heat;
      this.maximum = 1;
      for (var i = 2; i < heat.cells.length; i += 3) this.maximum = Math.max(this.maximum, heat.cells[i]);
    },
    onAdd: function (map) {
      this.map = map;
      this.canvas = L.DomUtil.create("canvas", "heat leaflet-zoom-hide");
      map.getPane("heat").appendChild(this.canvas);
      map.on("moveend zoomend resize", this.draw, this);
      this.draw();
    },
    onRemove: function (map) {
      map.off("moveend zoomend resize", this.draw, this);
      L.DomUtil.remove(this.canvas);
    },
    draw: function () {
      var map = this.map, size = map.getSize(), cells = this.heat.cells, cell = this.heat.cell_deg;
      L.DomUtil.setPosition(this.canvas, map.containerPointToLayerPoint([0, 0]));
      this.canvas.width = size.x;
      this.canvas.height = size.y;
      var context = this.canvas.getContext("2d");
      var top = map.latLngToContainerPoint([0, 0]), side = map.latLngToContainerPoint([cell, cell]);
      var radius = Math.max(6, Math.abs(side.x - top.x) * 1.2);
      var logMaximum = Math.log(1 + this.maximum);
      for (var i = 0; i + 2 < cells.length; i += 3) {
        var centre = map.latLngToContainerPoint([(cells[i] + 0.5) * cell, (cells[i + 1] + 0.5) * cell]);
        if (centre.x < -radius || centre.y < -radius || centre.x > size.x + radius || centre.y > size.y + radius) continue;
        var strength = Math.log(1 + cells[i + 2]) / logMaximum;
        var gradient = context.createRadialGradient(centre.x, centre.y, 0, centre.x, centre.y, radius);
        var hue = Math.round(60 - 60 * strength);
        gradient.addColorStop(0, "hsla(" + hue + ", 100%, 50%, " + (0.2 + 0.4 * strength) + ")");
        gradient.addColorStop(1, "hsla(" + hue + ", 100%, 50%, 0)");
        context.fillStyle = gradient;
        context.fillRect(centre.x - radius, centre.y - radius, radius * 2, radius * 2);
      }
    }
  });
  var heat = new HeatLayer(data.heat);

  // Notes, photos, zone events and POI alerts, details on click.
  var markers = { note: L.layerGroup(), photo: L.layerGroup(), zone: L.layerGroup(), nearby: L.layerGroup() };
  var markerColours = { note: "#8e44ad", photo: "#17a2b8", zone: "#333333", nearby: "#d62728" };
  function marker(kind, lat, lon, html) {
    if (lat === null || lat === undefined || lon === null || lon === undefined) return;
    markers[kind].addLayer(L.circleMarker([lat, lon], {
      radius: 7, color: "#fff", weight: 1.5, fillColor: markerColours[kind], fillOpacity: 0.95
    }).bindPopup(html));
    bounds.extend([lat, lon]);
  }
  data.notes.forEach(function (note) {
    marker("note", note.lat, note.lon, "<b>Note</b> " + when(note.time) + "<br>" + escape(note.text));
  });
  data.photos.forEach(function (photo) {
    marker("photo", photo.lat, photo.lon, "<b>Photo</b> " + when(photo.time) + "<br>" + escape(photo.path));
  });
  data.events.forEach(function (event) {
    var lat = event.latitude !== undefined ? event.latitude : event.lat;
    var lon = event.longitude !== undefined ? event.longitude : event.lon;
    if (event.kind === "nearby") {
      marker("nearby", lat, lon, "<b>Near " + escape(event.poi_name) + "</b>" +
        (event.poi_category ? " (" + escape(event.poi_category) + ")" : "") + "<br>" + when(event.time) +
        (event.distance_m !== undefined ? "<br>" + Math.round(event.distance_m) + " m away" : ""));
    } else {
      marker("zone", lat, lon, "<b>" + (event.kind === "enter" ? "Entered " : "Left ") +
        escape(event.zone_name) + "</b><br>" + when(event.time) + (event.while_off ? " (while off)" : ""));
    }
  });

  [heat, zones, pois, poiNames, routes, ends, markers.zone, markers.nearby, markers.note, markers.photo]
    .forEach(function (layer) { layer.addTo(map); });
  L.control.layers(null, {
    "Routes": routes, "Time spent (heatmap)": heat, "Trip starts and ends": ends, "Zones": zones, "POIs": pois,
    "Notes": markers.note, "Photos": markers.photo, "Zone events": markers.zone, "POI alerts": markers.nearby
  }, { collapsed: false }).addTo(map);
  map.on("zoomend", spreadPOIs);
  map.on("zoomend moveend overlayadd overlayremove", showPOINames);
  if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
  else if (zones.getLayers().length) map.fitBounds(L.featureGroup(zones.getLayers()).getBounds());
  else map.fitBounds(countries.getBounds());
  // A view in the address, #zoom/latitude/longitude (as openstreetmap.org writes it): followed
  // when the page opens or the address changes, kept up to date while panning and zooming.
  function viewFromAddress(animate) {
    var match = /^#(\d{1,2})\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(location.hash);
    if (match) map.setView([Number(match[2]), Number(match[3])], Number(match[1]), { animate: animate });
  }
  viewFromAddress(false);
  spreadPOIs();
  showPOINames();
  window.addEventListener("hashchange", function () { viewFromAddress(true); });
  map.on("moveend", function () {
    var centre = map.getCenter();
    var address = "#" + map.getZoom() + "/" + centre.lat.toFixed(5) + "/" + centre.lng.toFixed(5);
    if (location.hash !== address) {
      try { history.replaceState(null, "", address); } catch (e) { /* a file: page may not rewrite its address */ }
    }
  });

  // Totals.
  var totals = data.totals;
  var totalItems = [
    ["Journeys", totals.journeys], ["Trips", totals.trips], ["Distance", km(totals.distance_m)],
    ["Driving time", totals.duration], ["Route points", totals.route_points],
    ["Points drawn", totals.drawn_points]
  ];
  document.getElementById("totals").innerHTML = totalItems.map(function (item) {
    return "<div><dt>" + item[0] + "</dt><dd>" + escape(item[1]) + "</dd></div>";
  }).join("");

  // Journeys and distance per month of the chosen year: stats --json, bar for bar.
  var months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var yearSelect = document.getElementById("year");
  data.stats.forEach(function (stats, index) {
    var option = document.createElement("option");
    option.value = index;
    option.textContent = stats.year;
    yearSelect.appendChild(option);
  });
  var chart = new Chart(document.getElementById("chart"), {
    type: "bar",
    data: {
      labels: months,
      datasets: [
        { label: "Journeys", data: [], backgroundColor: "#2563c9", yAxisID: "journeys", maxBarThickness: 48 },
        { label: "Distance (km)", data: [], backgroundColor: "#f08a00", yAxisID: "distance", maxBarThickness: 48 }
      ]
    },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false,
      scales: {
        journeys: { type: "linear", position: "left", beginAtZero: true, ticks: { precision: 0 },
          title: { display: true, text: "journeys" } },
        distance: { type: "linear", position: "right", beginAtZero: true, grid: { drawOnChartArea: false },
          title: { display: true, text: "km" } }
      }
    }
  });
  // The months the data has: a year's twelve for the whole history, the selection's for a
  // journey, a trip or a range.
  function showYear(index) {
    var shown = data.stats[index] ? data.stats[index].months : [];
    chart.data.labels = shown.map(function (month) { return months[month.month - 1]; });
    chart.data.datasets[0].data = shown.map(function (month) { return month.journeys; });
    chart.data.datasets[1].data = shown.map(function (month) { return month.distance_m / 1000; });
    chart.update();
  }
  yearSelect.addEventListener("change", function () { showYear(Number(yearSelect.value)); });
  if (data.stats.length) {
    yearSelect.value = data.stats.length - 1;
    showYear(data.stats.length - 1);
  }

  // The journeys table, with the type and text filters of travelctl journeys.
  var body = document.querySelector("#journeys tbody");
  function showJourneys() {
    var type = document.getElementById("type-filter").value;
    var words = document.getElementById("search").value.toLowerCase().split(/\s+/).filter(Boolean);
    body.innerHTML = data.journeys.filter(function (journey) {
      var text = [journey.destination, journey.type || "", journey.start_date, journey.end_date].join(" ").toLowerCase();
      return (!type || journey.type === type) && words.every(function (word) { return text.indexOf(word) >= 0; });
    }).map(function (journey) {
      return "<tr><td>" + journey.id + "</td><td><span class=\"swatch " + (journey.type || "untyped") +
        "\"></span>" + escape(journey.type || "-") + "</td><td>" + journey.start_date + "</td><td>" +
        (journey.open ? "(open)" : journey.end_date) + "</td><td>" + escape(journey.destination) +
        "</td><td class=\"number\">" + km(journey.distance_m) + "</td><td class=\"number\">" + journey.trips +
        "</td></tr>";
    }).join("");
  }
  document.getElementById("type-filter").addEventListener("change", showJourneys);
  document.getElementById("search").addEventListener("input", showJourneys);
  showJourneys();

  // What was drawn, for the tests: each year's bars as the chart holds them after drawing it.
  var bars = data.stats.map(function (stats, index) {
    showYear(index);
    return {
      year: stats.year,
      months: chart.data.labels.slice(),
      journeys: chart.getDatasetMeta(0).data.length ? chart.data.datasets[0].data.slice() : [],
      distance_km: chart.getDatasetMeta(1).data.length ? chart.data.datasets[1].data.slice() : []
    };
  });
  if (data.stats.length) showYear(Number(yearSelect.value));
  var check = document.getElementById("report-check");
  check.textContent = JSON.stringify({
    routes: routes.getLayers().map(function (line) { return line.tripID; }),
    route_colours: routes.getLayers().map(function (line) { return line.options.color; }),
    ends: ends.getLayers().length,
    markers: {
      note: markers.note.getLayers().length, photo: markers.photo.getLayers().length,
      zone: markers.zone.getLayers().length, nearby: markers.nearby.getLayers().length
    },
    heat_cells: data.heat.cells.length / 3,
    zones: zones.getLayers().length,
    zone_labels: Array.prototype.map.call(document.querySelectorAll(".zone-label"), function (label) {
      return label.textContent;
    }),
    pois: poiMarkers.length,
    pois_drawn: pois.getLayers().length,
    poi_names: Array.prototype.map.call(document.querySelectorAll(".poi-label"), function (label) {
      return label.textContent;
    }),
    zoom: map.getZoom(),
    title: document.title,
    countries: countries.getLayers().length,
    bars: bars,
    journey_rows: body.rows.length,
    resources: performance.getEntriesByType("resource").map(function (entry) { return entry.name; }),
    errors: errors,
    drawn_after_ms: Math.round(performance.now())
  });
  check.setAttribute("data-ready", "true");
})();
