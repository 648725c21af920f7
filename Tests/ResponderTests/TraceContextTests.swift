import NotificationEvents
import Testing

@testable import Responder

/// Which trace headers an input passes on to its outputs: W3C Trace Context only, within its limits.
@Suite struct TraceContextTests {
    static let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    @Test(arguments: [
        parent, "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00",
    ])
    func aValidTraceparentTravels(value: String) {
        #expect(TraceContext.propagated(from: ["traceparent": .string(value)]) == ["traceparent": .string(value)])
    }

    @Test(arguments: [
        "", parent.uppercased(), "ff" + parent.dropFirst(2), "00-00000000000000000000000000000000-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", parent + "-extra", String(parent.dropLast()),
        "00_0af7651916cd43dd8448eb211c80319c_b7ad6b7169203331_01", String(repeating: "0", count: 100_000),
    ])
    func anInvalidTraceparentIsDroppedWithItsState(value: String) {
        let headers: FieldTable = ["traceparent": .string(value), "tracestate": .string("vendor=1")]
        #expect(TraceContext.propagated(from: headers).isEmpty)
        #expect(TraceContext.dropsAny(of: headers))
    }

    @Test func aTraceparentThatIsNotAStringIsDropped() {
        for value: FieldValue in [.int64(1), .void, .array([.string(Self.parent)]), .table(["a": .string(Self.parent)])] {
            #expect(TraceContext.propagated(from: ["traceparent": value]).isEmpty)
        }
    }

    @Test(arguments: [
        "vendor=value", "a=1,b=2", " a=1 , ,b=2 ", "tenant1@system=v", "k-_*/=v!~", "a=" + String(repeating: "v", count: 256),
        Array(repeating: "k=v", count: 32).joined(separator: ","),
    ])
    func aValidTracestateTravelsWithItsParent(state: String) {
        let headers: FieldTable = ["traceparent": .string(Self.parent), "tracestate": .string(state)]
        #expect(TraceContext.propagated(from: headers) == headers)
        #expect(!TraceContext.dropsAny(of: headers))
    }

    @Test(arguments: [
        "novalue", "=v", "UPPER=v", "k=", "k=a,b", "k=a=b", "1k=v", "a@b@c=v", "k=caf\u{E9}",
        "a=" + String(repeating: "v", count: 257), String(repeating: "k", count: 257) + "=v",
        Array(repeating: "k=v", count: 33).joined(separator: ","),
    ])
    func anInvalidTracestateIsDroppedAndCounted(state: String) {
        let headers: FieldTable = ["traceparent": .string(Self.parent), "tracestate": .string(state)]
        #expect(TraceContext.propagated(from: headers) == ["traceparent": .string(Self.parent)])
        #expect(TraceContext.dropsAny(of: headers))
    }

    /// Headers arrive as a field table, where a name may come twice: the last counts, as in their JSON form
    /// (`MessageProperties.jsonHeaders`).
    @Test func ofARepeatedTraceHeaderTheLastCounts() {
        var headers = FieldTable()
        headers.appendDecoded(key: "traceparent", value: .string("not a trace"))
        headers.appendDecoded(key: "traceparent", value: .string(Self.parent))
        #expect(TraceContext.propagated(from: headers) == ["traceparent": .string(Self.parent)])
        headers.appendDecoded(key: "traceparent", value: .string("not a trace"))
        #expect(TraceContext.propagated(from: headers).isEmpty)
        #expect(TraceContext.dropsAny(of: headers))
    }

    @Test func noTraceHeadersIsNothingToCount() {
        #expect(!TraceContext.dropsAny(of: ["other": .string("x")]))
    }
}
