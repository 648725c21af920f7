import PostgresNIO
import Responder

/// Ordered mode's fleet on the server, by the server's clock (`now()`), so workers on several machines agree on who
/// is alive.
extension PostgresStateStore: FleetLeases {
    public func renewMembership(of member: String, for timeout: Duration) async throws -> ShardLeases {
        let milliseconds = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        return try await operation { client in
            try await client.withConnection { connection in
                try await connection.query(
                    """
                    INSERT INTO fleet_member (member, expires_at)
                        VALUES (\(member), now() + \(milliseconds) * interval '1 millisecond')
                    ON CONFLICT (member) DO UPDATE SET expires_at = EXCLUDED.expires_at
                    """, logger: self.logger)
                // Dead members are forgotten; their leases then hold nothing.
                try await connection.query("DELETE FROM fleet_member WHERE expires_at <= now()", logger: self.logger)
                return try await self.leases(on: connection)
            }
        }
    }

    public func claimShard(_ shard: Int, for member: String) async throws -> Bool {
        try await operation { client in
            try await client.withConnection { connection in
                let rows = try await connection.query(
                    """
                    INSERT INTO shard_lease (shard, holder) VALUES (\(shard), \(member))
                    ON CONFLICT (shard) DO UPDATE SET holder = EXCLUDED.holder
                    WHERE shard_lease.holder = EXCLUDED.holder OR NOT EXISTS (
                        SELECT 1 FROM fleet_member WHERE fleet_member.member = shard_lease.holder
                            AND expires_at > now())
                    RETURNING holder
                    """, logger: self.logger)
                var holds = false
                for try await holder in rows.decode(String.self) { holds = holder == member }
                return holds
            }
        }
    }

    public func releaseShards(_ shards: [Int], of member: String) async throws {
        try await operation { client in
            try await client.withConnection { connection in
                _ = try await connection.query(
                    "DELETE FROM shard_lease WHERE shard = ANY(\(shards)) AND holder = \(member)", logger: self.logger)
            }
        }
    }

    public func leaveFleet(_ member: String) async throws {
        try await operation { client in
            try await client.withConnection { connection in
                try await connection.query("DELETE FROM shard_lease WHERE holder = \(member)", logger: self.logger)
                try await connection.query("DELETE FROM fleet_member WHERE member = \(member)", logger: self.logger)
            }
        }
    }

    public func shardLeases() async throws -> ShardLeases {
        try await operation { client in
            try await client.withConnection { connection in try await self.leases(on: connection) }
        }
    }

    private func leases(on connection: PostgresConnection) async throws -> ShardLeases {
        var members: [String] = []
        for try await member in try await connection.query(
            "SELECT member FROM fleet_member WHERE expires_at > now() ORDER BY member", logger: logger
        ).decode(String.self) {
            members.append(member)
        }
        var holders: [Int: String] = [:]
        for try await (shard, holder) in try await connection.query(
            """
            SELECT shard, holder FROM shard_lease JOIN fleet_member ON member = holder WHERE expires_at > now()
            """, logger: logger
        ).decode((Int, String).self) {
            holders[shard] = holder
        }
        return ShardLeases(members: members, holders: holders)
    }
}
