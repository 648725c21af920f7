import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

@Suite struct RegistrationTests {
    @Test func aCategoryHasAtMostOneExtension() throws {
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(TestExtension(name: "first"))
        #expect(throws: RegistrationError.categoryAlreadyHandled(category: "photo-category", by: "first")) {
            try registry.register(TestExtension(name: "second"))
        }
    }

    @Test func extensionNamesAreUnique() throws {
        var registry = HandlerRegistry(categories: CategoryRegistry(["a", "b"].map { NotificationCategory(identifier: $0, actions: []) }))
        try registry.register(TestExtension(name: "same", categoryIdentifiers: ["a"]))
        #expect(throws: RegistrationError.duplicateExtensionName("same")) {
            try registry.register(TestExtension(name: "same", categoryIdentifiers: ["b"]))
        }
    }

    /// A typo in an extension's categories would otherwise send its responses to the app delegate without a word.
    /// `delegate` is how timeouts and dependency failures name the app tier: an extension of that name would share
    /// its streak of failures and read as the app delegate in every timeout.
    @Test func noExtensionIsNamedAsTheAppDelegate() {
        var registry = HandlerRegistry(categories: CategoryRegistry([NotificationCategory(identifier: "a", actions: [])]))
        #expect(throws: RegistrationError.reservedExtensionName("delegate")) {
            try registry.register(TestExtension(name: "delegate", categoryIdentifiers: ["a"]))
        }
    }

    @Test func anExtensionForAnUnregisteredCategoryIsRefused() throws {
        var registry = try Fixtures.registry(extension: nil)
        #expect(throws: RegistrationError.unregisteredCategory(category: "photo-categroy", extension: "typo")) {
            try registry.register(TestExtension(name: "typo", categoryIdentifiers: ["photo-category", "photo-categroy"]))
        }
        var empty = HandlerRegistry()
        let refused = try #require(throws: RegistrationError.self) { try empty.register(TestExtension(name: "early")) }
        #expect(refused.description
            == "the extension \"early\" handles category \"photo-category\", which is not registered: register the "
                + "category first (or check the identifier for a typo)")
    }

    /// Categories replaced after the extensions were registered (a categories file) are checked again.
    @Test func replacedCategoriesAreCheckedAgainstTheExtensions() throws {
        var registry = try Fixtures.registry()
        try registry.checkExtensionCategories()
        registry.setNotificationCategories(CategoryRegistry([NotificationCategory(identifier: "new", actions: [])]))
        #expect(throws: RegistrationError.unregisteredCategory(category: "photo-category", extension: "test-extension")) {
            try registry.checkExtensionCategories()
        }
    }

    @Test func registeringACategoryReplacesOneWithTheSameIdentifier() {
        var categories = CategoryRegistry([NotificationCategory(identifier: "c", actions: [Fixtures.like])])
        categories.register(
            NotificationCategory(identifier: "c", actions: [Fixtures.share], options: [.customDismissAction]))
        #expect(categories.all.count == 1)
        #expect(categories.initialActions(forCategory: "c") == [Fixtures.share])
        #expect(categories.deliversDismiss(forCategory: "c"))
        #expect(!categories.deliversDismiss(forCategory: "other"))
    }

    @Test func setNotificationCategoriesReplacesTheWholeSet() throws {
        var registry = try Fixtures.registry()
        registry.setNotificationCategories(CategoryRegistry([NotificationCategory(identifier: "new", actions: [])]))
        #expect(registry.categories.all.map(\.identifier) == ["new"])
    }

    @Test func categoriesLoadFromACategoriesFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("categories-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(
            #"""
            {"categories": [{"identifier": "photo-category", "options": ["customDismissAction"], "intentIdentifiers": [],
              "actions": [{"identifier": "like-action", "title": "Like", "options": []},
                          {"identifier": "reply-action", "title": "Reply", "options": [],
                           "textInput": {"buttonTitle": "Send", "placeholder": "Say something"}}]}]}
            """#.utf8
        ).write(to: url)
        let categories = try CategoryRegistry(contentsOf: url)
        #expect(categories.initialActions(forCategory: "photo-category") == [Fixtures.like, Fixtures.reply])
        #expect(categories.deliversDismiss(forCategory: "photo-category"))
    }

    @Test func aBrokenCategoriesFileSaysWhichFileAndWhy() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("categories-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(#"{"categories": [{"identifier": 7}]}"#.utf8).write(to: url)
        let error = try #require(throws: CategoriesFileError.self) { try CategoryRegistry(contentsOf: url) }
        #expect(error.description.contains(url.path))
        #expect(error.description.contains("is not a categories file"))
        let missing = try #require(throws: CategoriesFileError.self) {
            try CategoryRegistry(contentsOf: url.appendingPathExtension("missing"))
        }
        #expect(missing.description.contains("cannot be read"))
    }
}
