import Foundation
import NotificationEvents
import Testing

/// `DeviceCommandKinds.all`, the list of device commands `responder watch` prints from, names exactly the schemas whose `data` is the shared `deviceCommand`, with the `type` and id suffix each
/// schema describes.
@Suite struct DeviceCommandKindsTests {
    /// The `type` and the id's description of every schema whose data is a device command.
    static func commandSchemas() throws -> [(type: String, idDescription: String)] {
        try ContractFiles.schemaNames.compactMap { name in
            let data = try Data(contentsOf: ContractFiles.schemas.appendingPathComponent(name))
            guard let schema = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let properties = schema["properties"] as? [String: Any],
                let reference = (properties["data"] as? [String: Any])?["$ref"] as? String,
                reference.hasSuffix("#/$defs/deviceCommand"),
                let type = (properties["type"] as? [String: Any])?["const"] as? String
            else { return nil }
            return (type, (properties["id"] as? [String: Any])?["description"] as? String ?? "")
        }
    }

    @Test func theListNamesEveryCommandSchemaOnce() throws {
        let schemas = try Self.commandSchemas()
        #expect(schemas.count == 2, "the dismissal's and the removal's schema")
        #expect(Set(DeviceCommandKinds.all.map { $0.eventType }) == Set(schemas.map(\.type)))
        #expect(DeviceCommandKinds.all.count == schemas.count)
        for kind in DeviceCommandKinds.all {
            let schema = schemas.first { $0.type == kind.eventType }
            #expect(schema?.idDescription.hasPrefix("\"<causationId>/\(kind.idSuffix)\"") == true, "\(kind)")
        }
    }

    @Test func eachKindHasAVerbOfItsOwn() {
        let verbs = DeviceCommandKinds.all.map { $0.verb }
        #expect(Set(verbs).count == verbs.count)
        #expect(verbs == ["dismiss", "remove"])
    }
}
