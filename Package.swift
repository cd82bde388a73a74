// swift-tools-version: 6.2
// Switchboard: a named-channel message router for the bridge between a host app
// and the SDKs, widgets and web views embedded in it. No dependencies.

import PackageDescription

let package = Package(
    name: "Switchboard",
    platforms: [.macOS(.v14), .iOS(.v17)],
    // The libraries an app depends on. The command-line tool is a product too
    // (`swift build --product switchboard-cli`); the benchmark and the fuzz
    // targets are development tools, run from this package only (a root
    // package's executable targets need no product: `swift run switchboard-bench`).
    products: [
        .library(name: "Switchboard", targets: ["Switchboard"]),
        .library(name: "SwitchboardJSON", targets: ["SwitchboardJSON"]),
        .library(name: "SwitchboardCommerce", targets: ["SwitchboardCommerce"]),
        .library(name: "SwitchboardWebKit", targets: ["SwitchboardWebKit"]),
        .library(name: "SwitchboardWire", targets: ["SwitchboardWire"]),
        .library(name: "SwitchboardTesting", targets: ["SwitchboardTesting"]),
        .executable(name: "switchboard-cli", targets: ["SwitchboardCLI"]),
    ],
    targets: [
        // The codec: the strict JSON scanner, JSONValue, the decoder over its sources, the encoder and
        // the writer. It knows nothing of the router; Switchboard re-exports it.
        .target(name: "SwitchboardJSON"),
        // The page client's runtime (Client/switchboard-runtime.js, .d.ts) is embedded into
        // Contract/Client/ClientRuntime.swift by tools/embed-client-runtime.py; CI checks it is current.
        .target(name: "Switchboard", dependencies: ["SwitchboardJSON"]),
        .target(name: "SwitchboardCommerce", dependencies: ["Switchboard"]),
        .target(name: "SwitchboardWebKit", dependencies: ["Switchboard"]),
        // The NDJSON wire format (reader, session, pipeline, outcome lines, sinks) and
        // TrafficRecorder: what an app may ship, so no test framework is linked here.
        .target(name: "SwitchboardWire", dependencies: ["Switchboard"]),
        .target(name: "SwitchboardTesting", dependencies: ["Switchboard", "SwitchboardWire"]),
        .executableTarget(
            name: "SwitchboardCLI",
            dependencies: ["Switchboard", "SwitchboardWire", "SwitchboardCommerce"]
        ),
        .executableTarget(name: "switchboard-bench", dependencies: ["Switchboard", "SwitchboardCommerce"]),
        // The app side as a Swift 6 team writes it (docs/app-side.md): an `@Observable` main-actor
        // model wired to channels, in a target whose default isolation is the main actor, as new
        // Xcode projects are. Not a product; built by `swift build` (and so in CI), no SwiftUI.
        .executableTarget(
            name: "SwitchboardSampleApp",
            dependencies: ["Switchboard", "SwitchboardCommerce"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        // The helpers the test targets share, each written once (not a test target, not a product).
        // It depends on no module of the package, so that every test target, the codec's
        // included, can use it without linking anything more than the module it tests.
        .target(name: "SwitchboardTestSupport", path: "Tests/SwitchboardTestSupport"),
        .testTarget(
            name: "SwitchboardTests",
            dependencies: ["Switchboard", "SwitchboardJSON", "SwitchboardWire", "SwitchboardTestSupport"]
        ),
        // The codec's tests: they build and link SwitchboardJSON and nothing of the router.
        .testTarget(name: "SwitchboardJSONTests", dependencies: ["SwitchboardJSON", "SwitchboardTestSupport"]),
        .testTarget(
            name: "SwitchboardCommerceTests",
            dependencies: ["SwitchboardCommerce", "Switchboard", "SwitchboardJSON", "SwitchboardTestSupport"]
        ),
        .testTarget(
            name: "SwitchboardWebKitTests",
            dependencies: ["SwitchboardWebKit", "Switchboard", "SwitchboardTestSupport"]
        ),
        .testTarget(
            name: "SwitchboardWireTests",
            dependencies: [
                "SwitchboardWire", "Switchboard", "SwitchboardJSON", "SwitchboardCommerce", "SwitchboardTestSupport",
            ]
        ),
        .testTarget(
            name: "SwitchboardTestingTests",
            dependencies: [
                "SwitchboardTesting", "SwitchboardWire", "Switchboard", "SwitchboardCommerce", "SwitchboardTestSupport",
            ]
        ),
        .testTarget(name: "SwitchboardCLITests", dependencies: ["SwitchboardCLI", "SwitchboardTestSupport"]),
    ]
)

// Fuzz targets (docs/reliability.md): executables whose only entry point is
// `LLVMFuzzerTestOneInput`; .ci/fuzz builds them with `--sanitize=fuzzer`.
// Not products: nothing outside this package can depend on them.
package.targets += [
    .executableTarget(name: "SwitchboardFuzzDecoder", dependencies: ["Switchboard"]),
    .executableTarget(
        name: "SwitchboardFuzzMessages",
        dependencies: ["Switchboard", "SwitchboardWire", "SwitchboardCommerce"]
    ),
]

// One place for the settings every target shares: Swift 6 mode, strict
// concurrency (implied by 6), `any` spelled out, and warnings treated as errors
// (`treatAllWarnings`, SE-0480: a safe setting, unlike passing `-warnings-as-errors`
// as an unsafe compiler flag, which SwiftPM refuses in a package depended on by version).
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.treatAllWarnings(as: .error))
    target.swiftSettings = settings
}
