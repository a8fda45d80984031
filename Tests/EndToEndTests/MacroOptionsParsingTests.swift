import AdSession
import Testing
@testable import vplay

/// `--seed`, `--now` and `--macro`: declared once (`MacroOptions`), parsed once, the same for `run` and `fleet`.
@Suite struct MacroOptionsParsingTests {
    static let commands: [[String]] = [[], ["fleet"]]

    func macroOptions(_ command: [String], _ arguments: [String]) throws -> MacroOptions {
        let parsed = try VPlay.parseAsRoot(command + ["--vast", "ad.xml"] + arguments)
        if let run = parsed as? RunCommand { return run.macros }
        if let fleet = parsed as? FleetCommand { return fleet.macros }
        throw CLIError("\(command) parsed to \(type(of: parsed))")
    }

    @Test(arguments: commands)
    func seedNowAndMacros_areParsedIntoTheConfiguration(_ command: [String]) throws {
        let macros = try macroOptions(command, ["--seed", "18446744073709551615", "--now", "2026-01-01T09:00:00.5+09:00",
                                                "--macro", "APPBUNDLE=com.game.app", "--macro", "VENDOR_2=a=b", "--macro", "IFA=",
                                                "--macro", "BLOCKEDADCATEGORIES=IAB25"])
        #expect(macros.seed == .max)
        #expect(macros.now == WallTime(milliseconds: 1_767_225_600_500, utcOffsetMinutes: 540))
        #expect(macros.macro == [DeviceMacro(name: "APPBUNDLE", value: "com.game.app"), DeviceMacro(name: "VENDOR_2", value: "a=b"), DeviceMacro(name: "IFA", value: ""),
                                 DeviceMacro(name: "BLOCKEDADCATEGORIES", value: "IAB25")])
        #expect(macros.unknownMacroNames == ["VENDOR_2"], "BLOCKEDADCATEGORIES is the player's own list, not an unknown name")
        var configuration = SessionConfiguration(tag: "ad.xml")
        macros.apply(to: &configuration)
        #expect(configuration.seed == .max)
        #expect(configuration.now == 1_767_225_600_500 && configuration.timeZoneOffsetMinutes == 540)
        #expect(configuration.deviceMacros["APPBUNDLE"] == "com.game.app" && configuration.deviceMacros["VENDOR_2"] == "a=b")
        #expect(configuration.deviceMacros["IFA"] == "")
    }

    @Test(arguments: [("0", WallTime(milliseconds: 0)), ("1700000000000", WallTime(milliseconds: 1_700_000_000_000)),
                      ("2026-01-01T00:00:00Z", WallTime(milliseconds: 1_767_225_600_000, utcOffsetMinutes: 0)),
                      ("2026-03-01T10:00:00-05:30", WallTime(milliseconds: 1_772_379_000_000, utcOffsetMinutes: -330)),
                      ("9999-12-31T23:59:59.999Z", WallTime(milliseconds: 253_402_300_799_999, utcOffsetMinutes: 0))])
    func now_takesISO8601OrMilliseconds(_ text: String, _ expected: WallTime) throws {
        #expect(try WallTime(parsing: text) == expected)
    }

    @Test(arguments: commands)
    func notGiven_seed1_noWallTime_theDefaultDeviceMacros(_ command: [String]) throws {
        let macros = try macroOptions(command, [])
        #expect(macros.seed == 1 && macros.now == nil && macros.macro.isEmpty)
        var configuration = SessionConfiguration(tag: "ad.xml")
        macros.apply(to: &configuration)
        #expect(configuration.seed == 1 && configuration.now == nil && configuration.timeZoneOffsetMinutes == 0)
        #expect(configuration.deviceMacros == SessionConfiguration.defaultDeviceMacros)
    }

    @Test(arguments: commands, [
        (["--seed", "-1"], "--seed must be a whole number from 0 to 18446744073709551615"),
        (["--seed", "18446744073709551616"], "--seed must be a whole number from 0 to 18446744073709551615"),
        (["--seed", "seven"], "--seed must be a whole number from 0 to 18446744073709551615"),
        (["--now", "yesterday"], "--now must be ISO 8601 (2026-01-01T00:00:00Z) or milliseconds since 1970, up to the year 9999"),
        (["--now", "9223372036854775807"], "--now must be ISO 8601 (2026-01-01T00:00:00Z) or milliseconds since 1970, up to the year 9999"),
        (["--now", "253402300800000"], "--now must be ISO 8601 (2026-01-01T00:00:00Z) or milliseconds since 1970, up to the year 9999"),
        (["--macro", "lower=x"], "--macro lower=x: expected NAME=VALUE with an upper-case NAME"),
        (["--macro", "NOEQUALS"], "--macro NOEQUALS: expected NAME=VALUE with an upper-case NAME"),
        (["--macro", "=x"], "--macro =x: expected NAME=VALUE with an upper-case NAME"),
    ])
    func badValue_isAUsageErrorNamingTheOption(_ command: [String], _ bad: ([String], String)) {
        let (arguments, message) = bad
        let error = CLI.usageError(command + ["--vast", "ad.xml"] + arguments)
        #expect(error?.contains(message) == true, "\(command + arguments): \(error ?? "no usage error")")
    }
}
