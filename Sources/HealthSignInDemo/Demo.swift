import Foundation

/// `HealthSignInDemo`: walks the five journeys and prints each step; `make demo` runs it against the emulator.
@main
struct Demo {
    static func main() async {
        let options: DemoOptions
        do {
            options = try DemoOptions(CommandLine.arguments.dropFirst())
        } catch {
            FileHandle.standardError.write(Data("HealthSignInDemo: \(error)\n".utf8))
            exit(2)
        }
        let steps = StepPrinter()
        if options.journeys.contains("healthvault") { await HealthVaultJourney(options: options).run(steps) }
        if options.journeys.contains("koppeltaal") { await KoppeltaalJourney(options: options).run(steps) }
        if options.journeys.contains("vital") { await VitalJourney(options: options).run(steps) }
        if options.journeys.contains("smart") { await SMARTJourney(options: options).run(steps) }
        if options.journeys.contains("koppeltaal2") { await Koppeltaal2Journey(options: options).run(steps) }
        if steps.steps == 0 {
            say("\nNo journey ran: give its servers and credentials (HealthSignInDemo --help), or --emulator URL.")
            exit(2)
        }
        if steps.failures > 0 {
            say("\n\(steps.failures) of \(steps.steps) steps failed.")
            exit(1)
        }
        say("\nAll \(steps.steps) steps succeeded.")
    }
}
