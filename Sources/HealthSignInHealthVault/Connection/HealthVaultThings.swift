import Foundation
import HealthSignInCore

/// One response's worth of the things a query finds, newest first.
public struct HealthVaultThingBatch: Sendable, Equatable {
    /// The things, in full.
    public let things: [Thing]
    /// Keys this batch did not return in full. In a follow-up batch: things that changed (a newer version stamp) or
    /// were removed after the first response listed them; read them again by id for their current version. In the
    /// first batch of a query that asks for no full things (`maxFull` 0): every key it found.
    public let unresolved: [ThingKey]

    /// Creates a batch.
    public init(things: [Thing], unresolved: [ThingKey]) {
        self.things = things
        self.unresolved = unresolved
    }
}

/// Every thing a GetThings query finds, as Microsoft's SDKs read them: the full things of the first response, then
/// the things it listed only by key (`unprocessed-thing-key-info`, past `max-full`), fetched by key in batches no
/// larger than the number of full things the first response held (protocols/healthvault.md §11.3.5).
///
/// Each batch is one request sent by `send`, so a caller that renews an expired session sends only the failed batch
/// again; no batch is requested twice.
///
/// A follow-up batch holds only the things it asked for: a thing in its answer whose key (id and version stamp) it
/// did not ask for, or a second copy of one it did, is dropped, as Microsoft's .NET SDK places returned things only by
/// key. Dropping rather than failing keeps the things that were asked for; the connection's calls log a warning with
/// the number dropped (never an id), since a server that sends them is faulty or hostile.
public struct HealthVaultThingBatches: AsyncSequence, Sendable {
    /// A batch of things.
    public typealias Element = HealthVaultThingBatch

    /// The query of the first request.
    public let query: GetThings3.QueryGroup
    private let send: @Sendable (GetThings3.QueryGroup) async throws -> GetThings3.ResultGroup
    private let dropped: (@Sendable (Int) -> Void)?

    /// Reads `query` through `send`, which sends a GetThings request with the one group it is given and returns that
    /// group's results; ``HealthVaultRecordCalls/things(_:)`` reads through a record's calls this way.
    public init(
        query: GetThings3.QueryGroup,
        send: @escaping @Sendable (GetThings3.QueryGroup) async throws -> GetThings3.ResultGroup
    ) {
        self.init(query: query, send: send, dropped: nil)
    }

    /// Reads `query` through `send`, telling `dropped` how many things a follow-up answer held that it did not ask
    /// for.
    init(
        query: GetThings3.QueryGroup,
        send: @escaping @Sendable (GetThings3.QueryGroup) async throws -> GetThings3.ResultGroup,
        dropped: (@Sendable (Int) -> Void)?
    ) {
        self.query = query
        self.send = send
        self.dropped = dropped
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(query: query, send: send, dropped: dropped) }

    /// Sends the first request, then one per batch of keys.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let query: GetThings3.QueryGroup
        let send: @Sendable (GetThings3.QueryGroup) async throws -> GetThings3.ResultGroup
        let dropped: (@Sendable (Int) -> Void)?
        /// The keys still to fetch; nil before the first response.
        private var pending: ArraySlice<ThingKey>?
        private var batchSize = 0

        init(
            query: GetThings3.QueryGroup,
            send: @escaping @Sendable (GetThings3.QueryGroup) async throws -> GetThings3.ResultGroup,
            dropped: (@Sendable (Int) -> Void)?
        ) {
            self.query = query
            self.send = send
            self.dropped = dropped
        }

        /// The next batch, or nil when every key was fetched.
        ///
        /// - Throws: what `send` throws; the batch can be asked for again.
        public mutating func next() async throws -> HealthVaultThingBatch? {
            guard let pending else {
                let first = try await send(query)
                let keys = first.unprocessedThingKeyInfo.map(\.thingID)
                batchSize = first.thing.count
                // A query that asked for no full thing gets its keys, and nothing is fetched by them.
                self.pending = batchSize > 0 ? keys[...] : []
                return HealthVaultThingBatch(things: first.thing, unresolved: batchSize > 0 ? [] : keys)
            }
            guard !pending.isEmpty else { return nil }
            let keys = Array(pending.prefix(batchSize))
            let group = try await send(query.followUp(fetching: keys))
            self.pending = pending.dropFirst(keys.count)
            // Each key asked for places at most one thing; anything else in the answer is not a result.
            var unclaimed = Set(keys.map(Version.init))
            let things = group.thing.filter { unclaimed.remove(Version($0.thingID)) != nil }
            if things.count < group.thing.count { dropped?(group.thing.count - things.count) }
            return HealthVaultThingBatch(things: things, unresolved: keys.filter { unclaimed.contains(Version($0)) })
        }
    }
}

extension GetThings3.QueryGroup {
    /// The group that fetches `keys`, listed by an earlier response to this group: the same name, format,
    /// `current-version-only` and order, and no filter or limits. A key is ORed with the filters, so repeating them
    /// would select the whole first page again.
    public func followUp(fetching keys: [ThingKey]) -> GetThings3.QueryGroup {
        GetThings3.QueryGroup(
            name: name, key: keys, format: format, currentVersionOnly: currentVersionOnly, orderBy: orderBy)
    }
}

/// A thing at one version, as a set member.
private struct Version: Hashable {
    let id: UUID
    let stamp: UUID?

    init(_ key: ThingKey) {
        id = key.id
        stamp = key.versionStamp
    }
}

/// A write of a thing that another writer changed since it was read: HealthVault refused its version stamp (status 61,
/// VERSION_STAMP_MISMATCH). Read the thing again (``HealthVaultRecordCalls/currentVersion(of:format:)``) and apply
/// the change to that version, as ``HealthVaultRecordCalls/modify(_:format:_:)`` does once by itself.
public struct HealthVaultThingChangedError: Error, Sendable, CustomStringConvertible {
    /// The thing whose version stamp was out of date.
    public let thingID: UUID
    /// HealthVault's answer.
    public let underlying: HealthVaultError

    /// Creates the error.
    public init(thingID: UUID, underlying: HealthVaultError) {
        self.thingID = thingID
        self.underlying = underlying
    }

    /// The thing and what to do.
    public var description: String {
        "HealthVault thing \(thingID.wireText) changed since it was read; read it again and apply the change to the "
            + "current version (\(underlying))"
    }
}

extension HealthVaultThingChangedError: SDKError {
    /// The request must be made again from the thing's current version.
    public var recovery: ErrorRecovery { .fixRequest }
}

extension HealthVaultRecordCalls {
    /// Every thing `query` finds in the record, in batches: the first response's full things, then the things it
    /// listed by key (see ``HealthVaultThingBatches``). Each request that meets an expired session is renewed and sent
    /// again on its own.
    public func things(_ query: GetThings3.QueryGroup) -> HealthVaultThingBatches {
        HealthVaultThingBatches(
            query: query, send: { try await resultGroup(of: $0) },
            dropped: { [connection] in connection.logUnrequestedThings($0) })
    }

    /// Sends GetThings with the one group `group` and returns its result group.
    ///
    /// - Throws: `ResponseDecodingError` when the response holds another number of groups than the one asked for:
    ///   which of several would be the answer cannot be told, so none is used.
    func resultGroup(of group: GetThings3.QueryGroup) async throws -> GetThings3.ResultGroup {
        let response = try await send { client, session, record in
            try await client.getThings3(.init(group: [group]), recordID: record, session: session)
        }
        guard response.group.count == 1, let result = response.group.first else {
            let count = response.group.count
            let reason =
                count == 0
                ? "the response has no result group" : "the response has \(count) result groups, 1 was asked for"
            throw ResponseDecodingError(path: "/info/group", reason: reason)
        }
        return result
    }

    /// Creates `things` in one request and returns their keys, in the order of `things`.
    ///
    /// - Throws: `ResponseDecodingError` when HealthVault answers with another number of keys; otherwise what
    ///   ``send(_:)`` throws.
    public func create(_ things: [PendingThing]) async throws -> [ThingKey] {
        try await put(things)
    }

    /// Writes `thing` over the version of the thing that `key` names (its `thingID` is replaced by `key`) and
    /// returns the new key.
    ///
    /// - Throws: ``HealthVaultThingChangedError`` when another writer changed the thing since that version was read;
    ///   otherwise what ``send(_:)`` throws.
    public func update(_ key: ThingKey, to thing: PendingThing) async throws -> ThingKey {
        let written = PendingThing(
            thingID: key, typeID: thing.typeID, thingState: thing.thingState, flags: thing.flags, dataXML: thing.dataXML
        )
        do {
            return try await put([written])[0]
        } catch let error as HealthVaultError where error.code == .versionStampMismatch {
            throw HealthVaultThingChangedError(thingID: key.id, underlying: error)
        }
    }

    /// Sends PutThings with `things` and returns their keys, one per thing, in order.
    private func put(_ things: [PendingThing]) async throws -> [ThingKey] {
        let keys = try await send { client, session, record in
            try await client.putThings2(.init(thing: things), recordID: record, session: session)
        }.thingID
        guard keys.count == things.count else {
            throw ResponseDecodingError(
                path: "/info/thing-id", reason: "\(keys.count) keys for \(things.count) things written")
        }
        return keys
    }

    /// The current version of the thing `thingID` in `format`, or nil when the record no longer has it.
    public func currentVersion(
        of thingID: UUID, format: GetThings3.Format = .init(section: [.core], xml: [""])
    ) async throws -> Thing? {
        try await resultGroup(of: .init(id: [thingID], format: format)).thing.first { $0.thingID.id == thingID }
    }

    /// Reads the thing `thingID`, writes what `change` makes of it, and returns the new key, or nil when the record
    /// no longer has the thing. When another writer changed the thing in between, it is read again and `change`
    /// applied once more to its current version.
    ///
    /// - Throws: ``HealthVaultThingChangedError`` when the thing changed again before the second write; what
    ///   `change` throws; otherwise what ``send(_:)`` throws.
    public func modify(
        _ thingID: UUID, format: GetThings3.Format = .init(section: [.core], xml: [""]),
        _ change: @Sendable (Thing) throws -> PendingThing
    ) async throws -> ThingKey? {
        func write() async throws -> ThingKey? {
            guard let current = try await currentVersion(of: thingID, format: format) else { return nil }
            return try await update(current.thingID, to: try change(current))
        }
        do {
            return try await write()
        } catch is HealthVaultThingChangedError {
            return try await write()
        }
    }
}
