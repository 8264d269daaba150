/// The HTML page of `travelctl report`: one self-contained file, every script, style and map
/// layer inline, so it opens from a USB stick on a laptop without network.
///
/// The page is the same for every report but for `data`, the JSON document `ReportDocument`
/// builds (the daemon's `Report` reply, or the database's with `--db`), so both give the same bytes.
package enum ReportPage {
    /// The page for `data`, a JSON document: `<` is written `\u003c` (it can only occur inside
    /// JSON strings), so no text in it can close the script element it is embedded in.
    package static func html(data: [UInt8]) -> [UInt8] {
        var page: [UInt8] = []
        page.reserveCapacity(data.count + 600_000)
        func append(_ text: String) { page += text.utf8 }
        append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        append("<title>TravelCompanion report</title>\n")
        // Leaflet, BSD-2-Clause (c) 2010-2019 Vladimir Agafonkin, (c) 2010-2011 CloudMade.
        append("<style>\n\(ReportAssets.leafletCss)\n</style>\n")
        append("<style>\n\(ReportAssets.reportCss)\n</style>\n</head>\n<body>\n")
        append(ReportAssets.reportHtml)
        // Natural Earth, package domain: country borders and coastlines at 1:110m.
        append("<script id=\"basemap\" type=\"application/json\">\n\(ReportAssets.basemapGeojson)</script>\n")
        append("<script id=\"report-data\" type=\"application/json\">\n")
        for byte in data {
            if byte == UInt8(ascii: "<") { page += "\\u003c".utf8 } else { page.append(byte) }
        }
        append("\n</script>\n")
        // Leaflet (BSD-2-Clause) and Chart.js (MIT, (c) 2014-2022 Chart.js Contributors), as
        // Debian's libjs-leaflet and libjs-chart.js ship them; their licences are in the Assets folder.
        append("<script>\n\(ReportAssets.leafletMinJs)\n</script>\n")
        append("<script>\n\(ReportAssets.chartMinJs)\n</script>\n")
        append("<script>\n\(ReportAssets.reportJs)</script>\n</body>\n</html>\n")
        return page
    }
}
