import Foundation
import Testing
import WebApp

@testable import RewindCLI

/// `--public-origin` and `REWIND_PUBLIC_ORIGIN`: the origins browsers see in
/// front of a TLS proxy; anything but `http` or `https`, a host and an
/// optional port is refused before the server starts.
@Suite("rewind serve --public-origin and REWIND_PUBLIC_ORIGIN")
struct ServePublicOriginTests {
    @Test func noOptionAndNoVariableGiveNoPublicOrigin() async throws {
        #expect(try PublicOriginOption.origins(options: [], environment: [:]).isEmpty)
        #expect(try PublicOriginOption.origins(options: [], environment: ["REWIND_PUBLIC_ORIGIN": ""]).isEmpty)
    }

    @Test func theOptionsAreTakenInOrderAndOverrideTheVariable() async throws {
        let origins = try PublicOriginOption.origins(
            options: ["https://todo.example", "http://10.0.0.5:8000"],
            environment: ["REWIND_PUBLIC_ORIGIN": "https://other.example"]
        )
        #expect(origins.map(\.description) == ["https://todo.example", "http://10.0.0.5:8000"])
    }

    @Test func theVariableHoldsACommaSeparatedList() async throws {
        let origins = try PublicOriginOption.origins(
            options: [], environment: ["REWIND_PUBLIC_ORIGIN": "https://todo.example, https://todo.example:8443,"]
        )
        #expect(origins.map(\.description) == ["https://todo.example", "https://todo.example:8443"])
    }

    @Test func aBadValueInTheVariableIsNamedWithTheVariable() {
        #expect(throws: PublicOriginOptionError(source: "$REWIND_PUBLIC_ORIGIN", value: "todo.example")) {
            try PublicOriginOption.origins(
                options: [], environment: ["REWIND_PUBLIC_ORIGIN": "https://todo.example,todo.example"]
            )
        }
    }

    @Test(arguments: [
        "todo.example", "https://todo.example/", "https://todo.example/app", "https://user@todo.example",
        "https://todo.example?x=1", "https://todo.example#top", "ftp://todo.example", "https://todo.example:99999",
    ])
    func theServerRefusesABadOptionWithStatus64AndWhatIsAllowed(value: String) async throws {
        let run = try await runRewind(["serve", "--port", "0", "--in-memory", "--public-origin", value], timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr == "rewind serve: --public-origin must be http:// or https://, a host name and an optional "
                + ":port (1-65535), and nothing else (no path, query, user or fragment; for example "
                + "https://todo.example), not \"\(value)\"\n"
        )
    }

    @Test func theServerRefusesABadVariableWithStatus64() async throws {
        let run = try await runRewind(
            ["serve", "--port", "0", "--in-memory"], environment: ["REWIND_PUBLIC_ORIGIN": "https://todo.example/"],
            timeout: 60
        )
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("rewind serve: $REWIND_PUBLIC_ORIGIN must be http:// or https://"))
        #expect(run.stderr.hasSuffix(", not \"https://todo.example/\"\n"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func theHelpExplainsTheOptionInOneLine() async throws {
        let run = try await runRewind(["serve", "--help"])
        #expect(run.status == 0)
        // The help wraps at the terminal's width; read it as one line of words.
        let words = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            words.contains(
                "--public-origin <origin> The origin browsers see in front of a TLS proxy (https://todo.example)"
            )
        )
    }
}

/// `--trusted-proxy`: IP addresses only, kept in their usual form.
@Suite("rewind serve --trusted-proxy")
struct ServeTrustedProxyTests {
    @Test func addressesAreKeptInTheFormAConnectionShows() async throws {
        #expect(try TrustedProxyOption.addresses(options: []) == [])
        #expect(
            try TrustedProxyOption.addresses(options: ["127.0.0.1", "0:0:0:0:0:0:0:1", "10.0.0.2", "127.0.0.1"])
                == ["127.0.0.1", "::1", "10.0.0.2"])
    }

    @Test(arguments: ["nginx.local", "10.0.0", "127.0.0.1:8080", "", "10.0.0.0/8"])
    func aValueThatIsNotAnAddressIsRefusedSayingWhatIsAllowed(_ value: String) {
        #expect(throws: TrustedProxyOptionError(value: value)) { try TrustedProxyOption.addresses(options: [value]) }
        #expect(TrustedProxyOptionError(value: value).description.contains("IP address of a proxy"))
    }

    @Test func theServerRefusesABadValueWithStatus64() async throws {
        let run = try await runRewind(["serve", "--in-memory", "--port", "0", "--trusted-proxy", "nginx.local"], timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "rewind serve: \(TrustedProxyOptionError(value: "nginx.local"))\n")
    }
}
