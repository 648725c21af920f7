import Foundation

// Every delivery is decoded once, so the input event is read here directly from the parser's tape, member by
// member, rather than through `Decodable`: the generic path spends a third of its time instantiating generic
// metadata (containers, optionals, arrays) for every field. This reader only ever accepts: it reads the documents
// it fully understands (valid input events whose keys are plain ASCII and whose trigger, if any, is not a calendar
// trigger) and returns nil for anything else, which the strict decoder then judges, so every refusal, its reason
// and its field path stay the strict decoder's. What it accepts, it reads by the strict decoder's rules, value for
// value (DirectReadingTests runs both on the corpus and the fuzzer's seeds; the fuzzer compares them on every input).
// Kept while it pays: Benchmarks/thresholds.json's replay row "redgreen memory" (131,200 instructions an event) fails without it.

extension EventCodec {
    /// The input event at the top of `tape`, read directly; nil when the document is not a valid input event or
    /// not one this reader understands.
    static func directlyReadResponseEvent(_ tape: JSONTape) -> NotificationResponseEvent? {
        tape.bytes.withUnsafeBufferPointer { bytes in
            tape.nodes.withUnsafeBufferPointer { nodes in
                try? ResponseEventReader(tape: tape, bytes: bytes, nodes: nodes).event()
            }
        }
    }
}

/// The reader gives up on a document: the strict decoder will judge it.
private struct Unread: Error {}

/// Reads the input event's types from a tape; every read throws ``Unread`` where the strict decoder would refuse
/// the document or where this reader does not know the strict decoder's answer.
private struct ResponseEventReader {
    let tape: JSONTape
    let bytes: UnsafeBufferPointer<UInt8>
    let nodes: UnsafeBufferPointer<JSONTape.Node>

    /// The node of a member the document does not have.
    private static let absent = -1

    func event() throws(Unread) -> NotificationResponseEvent {
        var specversion = Self.absent, id = Self.absent, source = Self.absent, type = Self.absent
        var time = Self.absent, subject = Self.absent, datacontenttype = Self.absent, data = Self.absent
        try forEachMember(of: 0) { key, value in
            if matches(key, "data") { data = value }
            else if matches(key, "id") { id = value }
            else if matches(key, "source") { source = value }
            else if matches(key, "type") { type = value }
            else if matches(key, "specversion") { specversion = value }
            else if matches(key, "time") { time = value }
            else if matches(key, "subject") { subject = value }
            else if matches(key, "datacontenttype") { datacontenttype = value }
        }
        // Equal to the constants, so the event's own (which the initializer sets) are the same strings.
        guard try string(specversion, is: NotificationResponseEvent.specVersion),
              try string(type, is: EventType.notificationResponse)
        else { throw Unread() }
        let event = NotificationResponseEvent(
            id: try identifier(id), source: try nonEmpty(source), type: EventType.notificationResponse, time: try optionalDate(time),
            subject: try optionalString(subject), datacontenttype: try optionalString(datacontenttype),
            data: try response(data))
        if let subject = event.subject, subject != event.data.notification.request.identifier { throw Unread() }
        return event
    }

    private func response(_ node: Int) throws(Unread) -> NotificationResponse {
        var actionIdentifier = Self.absent, userText = Self.absent, notification = Self.absent
        try forEachMember(of: node) { key, value in
            if matches(key, "actionIdentifier") { actionIdentifier = value }
            else if matches(key, "notification") { notification = value }
            else if matches(key, "userText") { userText = value }
        }
        let action = ActionIdentifier(rawValue: try identifier(actionIdentifier))
        let text = try optionalString(userText)
        if text != nil, action == .default || action == .dismiss { throw Unread() }
        return NotificationResponse(actionIdentifier: action, userText: text, notification: try self.notification(notification))
    }

    private func notification(_ node: Int) throws(Unread) -> Notification {
        var date = Self.absent, request = Self.absent
        try forEachMember(of: node) { key, value in
            if matches(key, "date") { date = value }
            else if matches(key, "request") { request = value }
        }
        return Notification(date: try self.date(date), request: try self.request(request))
    }

    private func request(_ node: Int) throws(Unread) -> NotificationRequest {
        var identifier = Self.absent, content = Self.absent, trigger = Self.absent
        try forEachMember(of: node) { key, value in
            if matches(key, "identifier") { identifier = value }
            else if matches(key, "content") { content = value }
            else if matches(key, "trigger") { trigger = value }
        }
        return NotificationRequest(
            identifier: try self.identifier(identifier), content: try self.content(content),
            trigger: isPresent(trigger) ? try self.trigger(trigger) : nil)
    }

    private func content(_ node: Int) throws(Unread) -> NotificationContent {
        var title = Self.absent, subtitle = Self.absent, body = Self.absent, badge = Self.absent, sound = Self.absent
        var categoryIdentifier = Self.absent, threadIdentifier = Self.absent, targetContentIdentifier = Self.absent
        var userInfo = Self.absent
        try forEachMember(of: node) { key, value in
            if matches(key, "categoryIdentifier") { categoryIdentifier = value }
            else if matches(key, "title") { title = value }
            else if matches(key, "body") { body = value }
            else if matches(key, "subtitle") { subtitle = value }
            else if matches(key, "badge") { badge = value }
            else if matches(key, "sound") { sound = value }
            else if matches(key, "threadIdentifier") { threadIdentifier = value }
            else if matches(key, "targetContentIdentifier") { targetContentIdentifier = value }
            else if matches(key, "userInfo") { userInfo = value }
        }
        return NotificationContent(
            title: try optionalString(title), subtitle: try optionalString(subtitle), body: try optionalString(body),
            badge: isPresent(badge) ? try self.badge(badge) : nil, sound: try optionalString(sound),
            categoryIdentifier: try self.identifier(categoryIdentifier, mayBeEmpty: true),
            threadIdentifier: try optionalString(threadIdentifier),
            targetContentIdentifier: try optionalString(targetContentIdentifier),
            userInfo: isPresent(userInfo) ? try self.userInfo(userInfo) : nil)
    }

    /// A push, time-interval or location trigger; a calendar trigger is left to the strict decoder, whose
    /// dictionary of components goes through Codable's own dictionary decoding.
    private func trigger(_ node: Int) throws(Unread) -> NotificationTrigger {
        var type = Self.absent, timeInterval = Self.absent, repeats = Self.absent, region = Self.absent
        try forEachMember(of: node) { key, value in
            if matches(key, "type") { type = value }
            else if matches(key, "timeInterval") { timeInterval = value }
            else if matches(key, "repeats") { repeats = value }
            else if matches(key, "region") { region = value }
        }
        if try string(type, is: "push") { return .push }
        if try string(type, is: "timeInterval") {
            let seconds = try number(timeInterval)
            guard seconds > 0 else { throw Unread() }
            return .timeInterval(seconds: seconds, repeats: try optionalBool(repeats) ?? false)
        }
        if try string(type, is: "location") {
            return .location(region: try self.region(region), repeats: try optionalBool(repeats) ?? false)
        }
        throw Unread()
    }

    private func region(_ node: Int) throws(Unread) -> CircularRegion {
        var identifier = Self.absent, latitude = Self.absent, longitude = Self.absent, radius = Self.absent
        var notifyOnEntry = Self.absent, notifyOnExit = Self.absent
        try forEachMember(of: node) { key, value in
            if matches(key, "identifier") { identifier = value }
            else if matches(key, "latitude") { latitude = value }
            else if matches(key, "longitude") { longitude = value }
            else if matches(key, "radius") { radius = value }
            else if matches(key, "notifyOnEntry") { notifyOnEntry = value }
            else if matches(key, "notifyOnExit") { notifyOnExit = value }
        }
        let region = CircularRegion(
            identifier: try string(identifier), latitude: try number(latitude), longitude: try number(longitude),
            radius: try number(radius), notifyOnEntry: try optionalBool(notifyOnEntry),
            notifyOnExit: try optionalBool(notifyOnExit))
        guard (-90...90).contains(region.latitude), (-180...180).contains(region.longitude), region.radius >= 0 else {
            throw Unread()
        }
        return region
    }

    // MARK: Members

    /// Calls `body` with the key's text and the value node of each member of the object at `node`; throws when
    /// there is no object there, or when a key has escapes or bytes outside ASCII (the strict decoder matches
    /// such keys by their decoded text, so they are left to it).
    private func forEachMember(
        of node: Int, _ body: (_ key: UnsafeBufferPointer<UInt8>, _ value: Int) -> Void
    ) throws(Unread) {
        guard node != Self.absent, nodes[node].kind == .object else { throw Unread() }
        let end = nodes[node].next
        var key = node + 1
        while key < end {
            guard !nodes[key].needsDecoding else { throw Unread() }
            body(UnsafeBufferPointer(rebasing: bytes[nodes[key].textRange]), key + 1)
            key = nodes[key + 1].next
        }
    }

    private func matches(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        JSONTape.plainKey(key, is: name)
    }

    /// Whether the member is there and not null: the contract reads null in an optional field as absent.
    private func isPresent(_ node: Int) -> Bool {
        node != Self.absent && nodes[node].kind != .null
    }

    // MARK: Values, by the strict decoder's rules

    private func string(_ node: Int) throws(Unread) -> String {
        guard node != Self.absent, nodes[node].kind == .string else { throw Unread() }
        return JSONTape.string(nodes[node], in: bytes)
    }

    /// Whether the string at `node` is `constant`, compared scalar by scalar as the schemas' `const` and `enum`
    /// do, which for UTF-8 is byte by byte: on the document's bytes unless the text has escapes.
    private func string(_ node: Int, is constant: String) throws(Unread) -> Bool {
        guard node != Self.absent, nodes[node].kind == .string else { throw Unread() }
        var constant = constant
        return constant.withUTF8 { expected in
            nodes[node].needsDecoding
                ? JSONTape.string(nodes[node], in: bytes).utf8.elementsEqual(expected)
                : JSONText.compareBytes(UnsafeBufferPointer(rebasing: bytes[nodes[node].textRange]), expected) == 0
        }
    }

    private func optionalString(_ node: Int) throws(Unread) -> String? {
        isPresent(node) ? try string(node) : nil
    }

    private func nonEmpty(_ node: Int) throws(Unread) -> String {
        let text = try string(node)
        guard !text.isEmpty else { throw Unread() }
        return text
    }

    /// As `decodeIdentifier`: no U+0000 and, unless `mayBeEmpty`, not empty. U+0000's only UTF-8 form is a zero
    /// byte, and only an escape can put one in a string (the parser refuses raw control characters).
    private func identifier(_ node: Int, mayBeEmpty: Bool = false) throws(Unread) -> String {
        let text = try mayBeEmpty ? string(node) : nonEmpty(node)
        guard !nodes[node].needsDecoding || !text.utf8.contains(0) else { throw Unread() }
        return text
    }

    /// A date-time; read from the document's bytes unless its text has escapes.
    private func date(_ node: Int) throws(Unread) -> Date {
        guard node != Self.absent, nodes[node].kind == .string else { throw Unread() }
        let date = nodes[node].needsDecoding
            ? InternetDate.parse(JSONTape.string(nodes[node], in: bytes))
            : InternetDate.parse(utf8: UnsafeBufferPointer(rebasing: bytes[nodes[node].textRange]))
        guard let date else { throw Unread() }
        return date
    }

    private func optionalDate(_ node: Int) throws(Unread) -> Date? {
        isPresent(node) ? try date(node) : nil
    }

    private func number(_ node: Int) throws(Unread) -> Double {
        guard node != Self.absent, nodes[node].kind == .integer || nodes[node].kind == .number else { throw Unread() }
        return tape.double(at: node)
    }

    private func optionalBool(_ node: Int) throws(Unread) -> Bool? {
        guard isPresent(node) else { return nil }
        switch nodes[node].kind {
        case .true: return true
        case .false: return false
        default: throw Unread()
        }
    }

    /// An integer of at least 0; as for every integer of the contract, a number with a zero fraction counts.
    private func badge(_ node: Int) throws(Unread) -> Int {
        let value: Int?
        switch nodes[node].kind {
        case .integer: value = Int(exactly: tape.integer(at: node))
        case .number: value = Int(exactly: tape.double(at: node))
        default: value = nil
        }
        guard let value, value >= 0 else { throw Unread() }
        return value
    }

    private func userInfo(_ node: Int) throws(Unread) -> [String: JSONValue] {
        guard nodes[node].kind == .object else { throw Unread() }
        return tape.members(at: node)
    }
}
