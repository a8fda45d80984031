import AdSession
import ArgumentParser

/// What the macros expand to, declared once for `run` and `fleet`: `--seed` ([CACHEBUSTING] and every other random
/// draw), `--now` ([TIMESTAMP]) and `--macro` (device and app macros).
struct MacroOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: .withDefault("Seed for [CACHEBUSTING] and every other random draw (a fleet's scenarios too), for reproducible runs (0 or more).", 1),
            transform: Self.seed)
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Wall time of the first frame for [TIMESTAMP]: ISO 8601 (2026-01-01T00:00:00Z) or ms since 1970.", valueName: "time"),
            transform: WallTime.init(parsing:))
    var now: WallTime?

    @Option(help: ArgumentHelp("A device or app macro value, e.g. APPBUNDLE=com.game.app; repeatable.", valueName: "NAME=VALUE"),
            transform: DeviceMacro.init(parsing:))
    var macro: [DeviceMacro] = []

    @Sendable static func seed(_ text: String) throws -> UInt64 {
        guard let seed = UInt64(text) else { throw ValidationError("--seed must be a whole number from 0 to \(UInt64.max)") }
        return seed
    }

    /// The `--macro` names vplay does not fill itself: their values are used only where a tag has the macro and
    /// vplay has no value of its own, which a run warns about. `BLOCKEDADCATEGORIES` is not one of them: it is the
    /// player's own blocked list, sent before the chain's in every wrapper request.
    var unknownMacroNames: [String] {
        macro.map(\.name).filter { !SessionConfiguration.defaultDeviceMacros.keys.contains($0) && $0 != "BLOCKEDADCATEGORIES" }
    }

    /// Applies these options to a session configuration.
    func apply(to configuration: inout SessionConfiguration) {
        configuration.seed = seed
        configuration.now = now?.milliseconds
        configuration.timeZoneOffsetMinutes = now?.utcOffsetMinutes ?? 0
        for entry in macro { configuration.deviceMacros[entry.name] = entry.value }
    }
}
