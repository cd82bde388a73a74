// swift-tools-version: 6.1
// Switchboard: a named-channel message router for the bridge between a host app
// and the SDKs, widgets and web views embedded in it. No dependencies.

import PackageDescription

let package = Package(
    name: "Switchboard",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Switchboard", targets: ["Switchboard"]),
        .library(name: "SwitchboardCommerce", targets: ["SwitchboardCommerce"]),
        .library(name: "SwitchboardWebKit", targets: ["SwitchboardWebKit"]),
        .library(name: "SwitchboardTesting", targets: ["SwitchboardTesting"]),
        .executable(name: "switchboard", targets: ["switchboard"]),
        .executable(name: "switchboard-bench", targets: ["switchboard-bench"]),
    ],
    targets: [
        .target(name: "Switchboard"),
        .target(name: "SwitchboardCommerce", dependencies: ["Switchboard"]),
        .target(name: "SwitchboardWebKit", dependencies: ["Switchboard"]),
        .target(name: "SwitchboardTesting", dependencies: ["Switchboard"]),
        .executableTarget(name: "switchboard", dependencies: ["Switchboard", "SwitchboardCommerce"]),
        .executableTarget(name: "switchboard-bench", dependencies: ["Switchboard", "SwitchboardCommerce"]),
        .testTarget(name: "SwitchboardTests", dependencies: ["Switchboard"]),
        .testTarget(name: "SwitchboardCommerceTests", dependencies: ["SwitchboardCommerce", "Switchboard"]),
        .testTarget(name: "SwitchboardWebKitTests", dependencies: ["SwitchboardWebKit", "Switchboard"]),
        .testTarget(
            name: "SwitchboardTestingTests",
            dependencies: ["SwitchboardTesting", "Switchboard", "SwitchboardCommerce"]
        ),
        .testTarget(name: "SwitchboardCLITests", dependencies: ["switchboard"]),
    ]
)

// Fuzz targets (docs/reliability.md): executables whose only entry point is
// `LLVMFuzzerTestOneInput`; .ci/fuzz builds them with `--sanitize=fuzzer`.
package.products += [
    .executable(name: "SwitchboardFuzzDecoder", targets: ["SwitchboardFuzzDecoder"]),
    .executable(name: "SwitchboardFuzzMessages", targets: ["SwitchboardFuzzMessages"]),
]
package.targets += [
    .executableTarget(name: "SwitchboardFuzzDecoder", dependencies: ["Switchboard"]),
    .executableTarget(name: "SwitchboardFuzzMessages", dependencies: ["Switchboard", "SwitchboardCommerce"]),
]

// One place for the settings every target shares: Swift 6 mode, strict
// concurrency (implied by 6), `any` spelled out, and warnings treated as defects.
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.unsafeFlags(["-warnings-as-errors"]))
    target.swiftSettings = settings
}
