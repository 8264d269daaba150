import PackagePlugin

/// Inlines the report's assets (Leaflet, Chart.js, the Natural Earth basemap, the page's own
/// HTML, CSS and JavaScript, all in `Sources/TravelReport/Assets`) into the `TravelReport`
/// module at build time, as Swift string literals: `travelctl report` writes one file that needs
/// nothing else, and needs nothing installed at run time.
@main
struct ReportAssets: BuildToolPlugin {
    /// The files, in `Assets`, that become `ReportAssets` members (named by `report-assets-embedder`).
    static let files = [
        "leaflet.min.js", "leaflet.css", "chart.min.js", "basemap.geojson", "report.html", "report.css", "report.js",
    ]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let assets = target.directoryURL.appending(path: "Assets")
        let inputs = Self.files.map { assets.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "ReportAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding the report's assets",
                executable: try context.tool(named: "report-assets-embedder").url,
                arguments: [output.path()] + inputs.map { $0.path() },
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
