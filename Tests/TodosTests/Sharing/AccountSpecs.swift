import Foundation
import Testing

@testable import Todos

@Suite("Accounts, list access and sign-in throttling")
struct AccountSpecs {
    @Suite("an account name")
    struct Names {
        @Test func isComparedWithoutCaseAndKeptAsTyped() throws {
            let typed = try AccountName("Ann.Lee")
            #expect(typed == (try AccountName("ann.lee")))
            #expect(typed.text == "Ann.Lee")
            #expect(typed.key == "ann.lee")
        }

        @Test(arguments: [
            ("", "must not be empty"),
            ("ann lee", "“ ” is not allowed"),
            ("anné", "“é” is not allowed"),
            ("\u{212A}ate", "“\u{212A}” is not allowed"),
            ("-ann", "must start with a letter or a digit"),
            (String(repeating: "a", count: 65), "at most 64 characters; this one has 65"),
        ])
        func breakingARuleSaysWhichAndWhatIsAllowed(name: String, expected: String) {
            #expect {
                try AccountName(name)
            } throws: { error in
                "\(error)".contains(expected)
            }
        }

        @Test func aPasswordNeedsTenCharactersAndAtMost72Bytes() throws {
            #expect(throws: AccountError.weakPassword("A password needs at least 10 characters; this one has 9.")) {
                try PasswordRule.check("123456789")
            }
            #expect(throws: AccountError.self) { try PasswordRule.check(String(repeating: "ü", count: 37)) }
            for blank in [String(repeating: " ", count: 10), String(repeating: "a", count: 12), " a a a a a a "] {
                #expect(throws: AccountError.weakPassword("A password needs at least two different characters besides spaces; this one has not.")) {
                    try PasswordRule.check(blank)
                }
            }
            try PasswordRule.check("correct horse")
        }
    }

    @Suite("a list's access")
    struct Access {
        let ann: AccountName
        let bob: AccountName
        let cem: AccountName

        init() throws {
            ann = try AccountName("ann")
            bob = try AccountName("bob")
            cem = try AccountName("cem")
        }

        @Test func membersReadAndChangeButOnlyTheOwnerSharesRenamesAndDeletes() throws {
            var access = ListAccess(owner: ann)
            try access.share(with: bob, by: ann)

            for action in [ListAccess.Action.read, .change] { try access.check(action, by: bob) }
            for action in [ListAccess.Action.rename, .share, .delete] {
                #expect(throws: AccountError.ownerOnly(action: action.rawValue)) { try access.check(action, by: bob) }
                try access.check(action, by: ann)
            }
        }

        @Test func anyoneElseIsToldTheListDoesNotExistWhateverTheyAsk() {
            let access = ListAccess(owner: ann, members: [bob])
            for action in ListAccess.Action.allCases {
                #expect(throws: AccountError.listNotFound) { try access.check(action, by: cem) }
            }
        }

        @Test func aMemberCannotShareFurtherAndUnsharingTakesAccessAway() throws {
            var access = ListAccess(owner: ann)
            try access.share(with: bob, by: ann)
            #expect(throws: AccountError.ownerOnly(action: "share")) { try access.share(with: cem, by: bob) }
            #expect(throws: AccountError.owner("ann", sharing: true)) { try access.share(with: ann, by: ann) }
            #expect(throws: AccountError.owner("ann", sharing: false)) { try access.unshare(with: ann, by: ann) }

            try access.unshare(with: bob, by: ann)

            #expect(throws: AccountError.listNotFound) { try access.check(.read, by: bob) }
            #expect(throws: AccountError.notMember("bob")) { try access.unshare(with: bob, by: ann) }
        }

        @Test func aMemberLeavesButStopsSharingWithNoOneElse() throws {
            var access = ListAccess(owner: ann, members: [bob, cem])
            #expect(throws: AccountError.ownerOnly(action: "stop sharing")) { try access.unshare(with: cem, by: bob) }
            #expect(throws: AccountError.ownerOnly(action: "stop sharing")) { try access.unshare(with: ann, by: bob) }
            try access.unshare(with: bob, by: bob)
            #expect(access.members == [cem])
            #expect(throws: AccountError.listNotFound) { try access.unshare(with: bob, by: bob) }
        }
    }

    @Suite("the sign-in throttle")
    struct Throttle {
        static let now = Date(timeIntervalSince1970: 1_800_000_000)

        @Test func freeFailuresThenWaitsThatDoubleUpToTheLongest() {
            var throttle = SignInThrottle(freeFailures: 2, firstWait: 1, longestWait: 4)
            let keys = SignInThrottle.keys(account: "Ann", address: "10.0.0.1")
            var waits: [TimeInterval?] = []
            for _ in 0..<6 {
                throttle.recordFailure(for: keys, at: Self.now)
                waits.append(throttle.wait(for: keys, at: Self.now))
            }
            #expect(waits == [nil, 1, 2, 4, 4, 4])
            #expect(throttle.wait(for: keys, at: Self.now.addingTimeInterval(4)) == nil)
        }

        @Test func attemptsUnderWayCountAsFailuresSoThatGuessesSentAtOnceAreNoMoreThanTheFreeOnes() {
            var throttle = SignInThrottle(freeFailures: 5, firstWait: 1)
            let keys = SignInThrottle.keys(account: "ann", address: "10.0.0.1")
            // Forty attempts at once, none of whose passwords is checked yet.
            let begun = (0..<40).map { _ in throttle.begin(keys, at: Self.now) }
            #expect(begun.prefix(5).allSatisfy { $0 == nil })
            #expect(begun.dropFirst(5).allSatisfy { $0 == 1 })
            // One of the five was the right password: the account is free again, the address keeps the other four.
            throttle.recordSuccess(for: keys)
            #expect(throttle.wait(for: SignInThrottle.keys(account: "ann", address: "10.0.0.2"), at: Self.now) == nil)
            #expect(throttle.begin(SignInThrottle.keys(account: "bob", address: "10.0.0.1"), at: Self.now) == nil)
            #expect(throttle.begin(SignInThrottle.keys(account: "cem", address: "10.0.0.1"), at: Self.now) == 1)
        }

        /// A right password, or an attempt that could not be checked (the
        /// accounts could not be read), is no failure: nothing stays counted.
        @Test(arguments: [true, false])
        func anAttemptThatSucceedsOrCannotBeCheckedLeavesNothingCounted(succeeds: Bool) {
            var throttle = SignInThrottle(freeFailures: 1)
            let keys = SignInThrottle.keys(account: "ann", address: "10.0.0.1")
            for _ in 0..<3 {
                #expect(throttle.begin(keys, at: Self.now) == nil)
                if succeeds { throttle.recordSuccess(for: keys) } else { throttle.recordUnchecked(for: keys) }
            }
            #expect(throttle == SignInThrottle(freeFailures: 1))
        }

        @Test func namesOfEveryLengthAndAddressesWithoutEndAreForgottenButAnAccountUnderAttackIsNot() {
            var throttle = SignInThrottle(freeFailures: 2, longestWait: 60)
            let long = String(repeating: "x", count: 70_000)
            // Slowed: its free failures spent (the same key for every name of that beginning).
            throttle.recordFailure(for: SignInThrottle.keys(account: long, address: "10.0.0.1"), at: Self.now)
            throttle.recordFailure(for: SignInThrottle.keys(account: long + "y", address: "10.0.0.2"), at: Self.now)
            #expect(throttle.wait(for: SignInThrottle.keys(account: long + "z", address: "10.0.0.9"), at: Self.now) != nil)
            // Addresses without end, one failure each: with the three keys above, as many keys as are kept before forgetting.
            for n in 0..<(SignInThrottle.keysKeptBeforeForgetting - 3) {
                throttle.recordFailure(for: ["address:10.1.\(n)"], at: Self.now)
            }
            let later = Self.now.addingTimeInterval(61)
            throttle.recordFailure(for: SignInThrottle.keys(account: "bob", address: "10.0.0.3"), at: later)
            var expected = SignInThrottle(freeFailures: 2, longestWait: 60)
            expected.recordFailure(for: ["account:" + String(repeating: "x", count: 65)], at: Self.now)
            expected.recordFailure(for: ["account:" + String(repeating: "x", count: 65)], at: Self.now)
            expected.recordFailure(for: SignInThrottle.keys(account: "bob", address: "10.0.0.3"), at: later)
            #expect(throttle == expected)
            // Its next failure waits twice as long, not the first wait again.
            throttle.recordFailure(for: SignInThrottle.keys(account: long, address: "10.0.0.9"), at: later)
            #expect(throttle.wait(for: SignInThrottle.keys(account: long, address: "10.0.0.9"), at: later) == 2)
        }

        @Test func failuresOnOneAccountFromManyAddressesSlowThatAccountDown() {
            var throttle = SignInThrottle(freeFailures: 2)
            for n in 0..<3 { throttle.recordFailure(for: SignInThrottle.keys(account: "ann", address: "10.0.0.\(n)"), at: Self.now) }

            #expect(throttle.wait(for: SignInThrottle.keys(account: "ANN", address: "10.9.9.9"), at: Self.now) != nil)
            #expect(throttle.wait(for: SignInThrottle.keys(account: "bob", address: "10.9.9.9"), at: Self.now) == nil)
        }

        @Test func aSuccessClearsTheAccountButNotTheAddress() {
            var throttle = SignInThrottle(freeFailures: 1)
            let keys = SignInThrottle.keys(account: "ann", address: "10.0.0.1")
            throttle.recordFailure(for: keys, at: Self.now)
            throttle.recordFailure(for: keys, at: Self.now)

            throttle.recordSuccess(account: "ann")

            #expect(throttle.wait(for: SignInThrottle.keys(account: "ann", address: "10.0.0.2"), at: Self.now) == nil)
            #expect(throttle.wait(for: SignInThrottle.keys(account: "bob", address: "10.0.0.1"), at: Self.now) != nil)
        }
    }
}
