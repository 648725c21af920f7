import Foundation
import GRDB
import Responder

/// Ordered mode's fleet in the SQLite file: the processes sharing it share one clock, the host's.
extension SQLiteStateStore: FleetLeases {
    public func renewMembership(of member: String, for timeout: Duration) async throws -> ShardLeases {
        try await SQLiteUnavailability.mapping {
            try await pool.write { db in
                let now = Date().timeIntervalSince1970
                try db.execute(
                    sql: """
                        INSERT INTO fleet_member (member, expires_at) VALUES (?, ?)
                        ON CONFLICT (member) DO UPDATE SET expires_at = excluded.expires_at
                        """, arguments: [member, now + timeout.timeInterval])
                // Dead members are forgotten; their leases then hold nothing.
                try db.execute(sql: "DELETE FROM fleet_member WHERE expires_at <= ?", arguments: [now])
                return try Self.leases(in: db, now: now)
            }
        }
    }

    public func claimShard(_ shard: Int, for member: String) async throws -> Bool {
        try await SQLiteUnavailability.mapping {
            try await pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO shard_lease (shard, holder) VALUES (?1, ?2)
                        ON CONFLICT (shard) DO UPDATE SET holder = excluded.holder
                        WHERE shard_lease.holder = excluded.holder OR NOT EXISTS (
                            SELECT 1 FROM fleet_member WHERE member = shard_lease.holder AND expires_at > ?3)
                        """, arguments: [shard, member, Date().timeIntervalSince1970])
                return try String.fetchOne(db, sql: "SELECT holder FROM shard_lease WHERE shard = ?", arguments: [shard])
                    == member
            }
        }
    }

    public func releaseShards(_ shards: [Int], of member: String) async throws {
        try await SQLiteUnavailability.mapping {
            try await pool.write { db in
                for shard in shards {
                    try db.execute(
                        sql: "DELETE FROM shard_lease WHERE shard = ? AND holder = ?", arguments: [shard, member])
                }
            }
        }
    }

    public func leaveFleet(_ member: String) async throws {
        try await SQLiteUnavailability.mapping {
            try await pool.write { db in
                try db.execute(sql: "DELETE FROM shard_lease WHERE holder = ?", arguments: [member])
                try db.execute(sql: "DELETE FROM fleet_member WHERE member = ?", arguments: [member])
            }
        }
    }

    public func shardLeases() async throws -> ShardLeases {
        try await SQLiteUnavailability.mapping {
            try await pool.read { db in try Self.leases(in: db, now: Date().timeIntervalSince1970) }
        }
    }

    private static func leases(in db: Database, now: Double) throws -> ShardLeases {
        let members = try String.fetchAll(
            db, sql: "SELECT member FROM fleet_member WHERE expires_at > ? ORDER BY member", arguments: [now])
        var holders: [Int: String] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT shard, holder FROM shard_lease JOIN fleet_member ON member = holder WHERE expires_at > ?
                """, arguments: [now])
        {
            holders[row[0]] = row[1]
        }
        return ShardLeases(members: members, holders: holders)
    }
}
