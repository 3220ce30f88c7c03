import Foundation
import Todos

/// What the lists page of one account shows (each list's name, owner,
/// members and counts), watched for the page's event stream: it yields the
/// overview's ``id`` after each change.
///
/// It hears every list the account can open (a step, a rename, a change of
/// members, the list's deletion, through any instance: the store's update
/// streams tell them all) and every list made for or shared with the
/// account (``SharedListStore/newLists(for:)``), reads the overview again
/// then, and yields its id even when it is the one read before: the page
/// may show a state in between, read by its own refresh after its own
/// change (a share that another person's leaving took back within the
/// burst interval), and compares the id with the one it shows. It also
/// reads the overview every ``recheckInterval``, in case a change went
/// unheard (an instance of an earlier version sends no news of new lists),
/// and yields then only an id that changed. After the reads of
/// ``start()``, reads are at least ``burstInterval`` apart: the first
/// change after a quiet while is read at once, those that follow within
/// the interval together at its end.
actor ListsOverviewWatch {
    /// How often the overview is read again although no list was heard.
    let recheckInterval: Duration
    /// The least time between two reads while changes keep coming.
    let burstInterval: Duration
    private let store: any SharedListStore
    private let person: AccountName
    private let continuation: AsyncStream<String>.Continuation
    /// The id of the overview as last read.
    private(set) var id: String
    private var heard: [UUID: Task<Void, Never>] = [:]
    private var periodic: Task<Void, Never>?
    private var newLists: Task<Void, Never>?
    private var reading = false
    /// When the overview was last read (for the burst interval).
    private var lastRead: ContinuousClock.Instant?
    private var again = false
    /// Whether a change was heard since the last read began.
    private var news = false
    private var stopped = false

    /// The ids of the overview after each change, from ``start()`` on.
    nonisolated let ids: AsyncStream<String>

    /// Reads the overview of `person` once, to know its ``id``.
    ///
    /// - Throws: What the store throws.
    init(
        store: any SharedListStore, person: AccountName,
        recheckInterval: Duration = .seconds(30), burstInterval: Duration = .seconds(1)
    ) async throws {
        self.store = store
        self.person = person
        self.recheckInterval = recheckInterval
        self.burstInterval = burstInterval
        (ids, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1))
        id = Self.id(of: try await store.overview(of: person))
    }

    /// Starts hearing the account's lists, and reading the overview now and
    /// then; reads it once more at once, for what changed since ``id`` was
    /// read. Does nothing after ``stop()``, which may come first (a client
    /// gone before its stream began).
    func start() async {
        guard !stopped else { return }
        // Heard before the read below: a list made after it is not missed.
        let made = await store.newLists(for: person)
        guard !stopped, newLists == nil else { return }
        newLists = Task { [weak self] in
            for await _ in made { await self?.changed(heard: true) }
        }
        if let overview = try? await store.overview(of: person) { _ = await hear(overview.map(\.list.id)) }
        guard !stopped else { return }
        let interval = recheckInterval
        periodic = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                await self.changed()
            }
        }
        changed()
    }

    /// Stops hearing, and ends ``ids``.
    func stop() {
        stopped = true
        newLists?.cancel()
        periodic?.cancel()
        heard.values.forEach { $0.cancel() }
        heard = [:]
        continuation.finish()
    }

    /// Something may have changed (`heard`: a list or the store told of a
    /// change): the overview is read again, now or, when a read runs, once
    /// more after it.
    func changed(heard: Bool = false) {
        guard !stopped else { return }
        if heard { news = true }
        guard !reading else {
            again = true
            return
        }
        reading = true
        Task { await read() }
    }

    private func read() async {
        repeat {
            // At most one read a burst interval, however quick each read is.
            if let lastRead, case let wait = lastRead + burstInterval - .now, wait > .zero {
                try? await Task.sleep(for: wait)
            }
            // What changed until now, the read below sees.
            again = false
            let told = news
            news = false
            lastRead = .now
            if let overview = try? await store.overview(of: person), !stopped {
                let now = Self.id(of: overview)
                if now != id || told {
                    id = now
                    continuation.yield(now)
                }
                // A list first heard now may have changed between the read
                // and the hearing, unheard: read once more.
                if await hear(overview.map(\.list.id)) { again = true }
            }
        } while again && !stopped
        reading = false
    }

    /// Hears the lists `ids`, and no longer those the account lost; whether
    /// it set out to hear a list it did not hear before.
    private func hear(_ ids: [UUID]) async -> Bool {
        var new = false
        let wanted = Set(ids)
        for (list, task) in heard where !wanted.contains(list) {
            task.cancel()
            heard[list] = nil
        }
        for list in ids where heard[list] == nil && !stopped {
            new = true
            // A list deleted or unshared since the read is not heard; the
            // next read drops it.
            guard let updates = try? await store.updates(of: list, as: person) else { continue }
            // Stopped, or heard by another read, meanwhile: the stream
            // unread ends when it goes.
            guard !stopped, heard[list] == nil else { continue }
            heard[list] = Task { [weak self] in
                for await _ in updates { await self?.changed(heard: true) }
                // Cancelled: no longer wanted. Else its stream ended (deleted,
                // or no longer shared): heard again if the list comes back.
                guard !Task.isCancelled else { return }
                await self?.streamEnded(list)
            }
        }
        return new
    }

    /// The stream of `list` ended: it is heard again if a later read finds it.
    private func streamEnded(_ list: UUID) {
        heard[list] = nil
        changed(heard: true)
    }

    /// A digest of what the page shows, the same on every instance: the
    /// event's `id:`.
    static func id(of overview: [(list: SharedListSummary, counts: SharedListCounts)]) -> String {
        var text = ""
        for (list, counts) in overview {
            let members = list.access.members.map(\.key).sorted().joined(separator: ",")
            text += "\(list.id.uuidString)\u{1}\(list.name)\u{1}\(list.access.owner.key)\u{1}\(members)"
            text += "\u{1}\(counts.items)\u{1}\(counts.completed)\u{2}"
        }
        return digest(text)
    }

    /// The id of the event of one list's stream (`/lists/{id}/events`)
    /// and of its page: the number of its latest step and a digest of
    /// its name, owner and members, `"19.0f3a…"`, so that a client away
    /// during a rename or a share, which make no step, is told of it when
    /// it reconnects.
    static func listEventID(seq: Int, of list: SharedListSummary) -> String {
        let members = list.access.members.map(\.key).sorted().joined(separator: ",")
        return "\(seq)." + digest("\(list.name)\u{1}\(list.access.owner.key)\u{1}\(members)")
    }

    /// 16 hex digits of the FNV-1a hash of `text`'s UTF-8.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
