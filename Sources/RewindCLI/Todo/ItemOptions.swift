import ArgumentParser
import Foundation
import Todos

/// The options that set an item's due date and location, shared by `add`
/// and `edit`, read into domain values before the command opens the data.
struct ItemOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "When it is due: today, tomorrow, fri, fri 14:30, fri 2:30pm, 5pm (today), in 3 days, 2026-12-01, 2026-12-01 14:30, 2026-12-01..2026-12-03, 2026-12-01 for 2 hours, or none.",
            valueName: "when"
        )
    )
    var due: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("A postal address: \"street, city, zip, country\" (later fields may be left out).", valueName: "address")
    )
    var address: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("A point in degrees: LAT,LON such as 53.93,9.10 (latitude -90…90, longitude -180…180).", valueName: "lat,lon")
    )
    var coordinate: String?

    @Option(
        name: .customLong("step"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp("One step of directions; repeat for several steps, in order.", valueName: "text")
    )
    var steps: [String] = []

    /// The due date given, read relative to `now` in the local time zone;
    /// `nil` when `--due` is absent.
    ///
    /// - Throws: ``DueDateError`` listing the accepted forms;
    ///   ``TodoCommandError`` for an empty value.
    func dueDate(now: Date = Date()) throws -> TodoDate? {
        guard let due else { return nil }
        // An empty value is more likely a variable that was not set than a wish to clear.
        guard due.contains(where: { !$0.isWhitespace }) else {
            throw TodoCommandError.usage("--due needs a date, such as tomorrow, fri 14:30 or 2026-12-01; --due none removes one")
        }
        return try DueDateParser(now: now, timeZone: .current).parse(due)
    }

    /// The location given, validated by the domain; `nil` when no location
    /// option is present.
    ///
    /// - Throws: ``TodoCommandError`` when more than one kind is given or a
    ///   coordinate is not two numbers; ``TodoError`` when the domain refuses it.
    func location() throws -> Location? {
        let given = [address != nil, coordinate != nil, !steps.isEmpty].filter { $0 }.count
        guard given <= 1 else {
            throw TodoCommandError.usage("give one location: --address, --coordinate or --step, not several")
        }
        if let address { return try Self.address(address).validated() }
        if let coordinate { return try Self.coordinate(coordinate).validated() }
        if !steps.isEmpty { return try Location.directions(.init(steps: steps)).validated() }
        return nil
    }

    /// Checks every value so that a bad one stops the command before it
    /// opens the data.
    func check() throws {
        _ = try dueDate()
        try location()?.checkTypedText()
    }

    private static func address(_ text: String) throws -> Location {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count <= 4 else {
            throw TodoCommandError.usage("“\(text)” has \(fields.count) fields; an address is \"street, city, zip, country\" (at most 4 fields, separated by commas)")
        }
        let padded = fields + Array(repeating: "", count: 4 - fields.count)
        return .address(.init(street: padded[0], city: padded[1], zipCode: padded[2], country: padded[3]))
    }

    private static func coordinate(_ text: String) throws -> Location {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              latitude.isFinite, longitude.isFinite
        else {
            throw TodoCommandError.usage("“\(text)” is not a coordinate: write LAT,LON in degrees, such as 53.93,9.10")
        }
        return .coordinate(.init(latitude: latitude, longitude: longitude))
    }
}
