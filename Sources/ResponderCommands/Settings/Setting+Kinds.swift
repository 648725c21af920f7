import Foundation
import Logging

extension Setting where Value == Int {
    /// A whole number within `range`; larger or smaller numbers, and numbers past `Int`, are refused by name.
    static func wholeNumber(
        _ flag: String, _ variable: String? = nil, default value: Int?, defaultDescription: String? = nil,
        in range: ClosedRange<Int>, _ summary: String
    ) -> Setting {
        Setting(
            flag: flag, variable: variable, defaultValue: value,
            defaultDescription: defaultDescription ?? value.map(String.init) ?? "none",
            allowed: "\(range.lowerBound) to \(range.upperBound)", summary: summary
        ) { text throws(SettingProblem) in
            try parseWholeNumber(text, in: range)
        }
    }
}

/// `text` as a whole number within `range`.
func parseWholeNumber(_ text: String, in range: ClosedRange<Int>) throws(SettingProblem) -> Int {
    guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
        throw SettingProblem("must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
}

extension Setting where Value == [Int] {
    /// Whole numbers within `range`, comma-separated; an empty entry is refused (`1,,2` is not `1,2`).
    static func wholeNumbers(
        _ flag: String, _ variable: String, default value: [Int], in range: ClosedRange<Int>, _ summary: String
    ) -> Setting {
        Setting(
            flag: flag, variable: variable, defaultValue: value,
            defaultDescription: value.map(String.init).joined(separator: ","),
            allowed: "\(range.lowerBound) to \(range.upperBound) each, comma-separated", summary: summary
        ) { text throws(SettingProblem) in
            var values: [Int] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = Int(part.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
                    throw SettingProblem(
                        "must be whole numbers from \(range.lowerBound) to \(range.upperBound), comma-separated")
                }
                values.append(value)
            }
            return values
        }
    }
}

extension Setting where Value == Double {
    /// A positive decimal number up to `maximum`.
    static func positiveNumber(
        _ flag: String, default value: Double?, defaultDescription: String? = nil, upTo maximum: Double,
        _ summary: String
    ) -> Setting {
        Setting(
            flag: flag, variable: nil, defaultValue: value,
            defaultDescription: defaultDescription ?? value.map { "\($0)" } ?? "none",
            allowed: "more than 0, up to \(Int(maximum))", summary: summary
        ) { text throws(SettingProblem) in
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number > 0, number <= maximum
            else { throw SettingProblem("must be a number more than 0 and up to \(Int(maximum))") }
            return number
        }
    }
}

extension Setting where Value == String {
    /// Any text that is not empty.
    static func text(
        _ flag: String, _ variable: String? = nil, default value: String?, defaultDescription: String? = nil,
        _ summary: String
    ) -> Setting {
        Setting(
            flag: flag, variable: variable, defaultValue: value, defaultDescription: defaultDescription ?? value ?? "none",
            allowed: nil, summary: summary
        ) { text throws(SettingProblem) in
            guard !text.isEmpty else { throw SettingProblem("must not be empty") }
            return text
        }
    }

    /// An AMQP exchange, queue or routing key name: at most 255 bytes, what the protocol's short strings hold.
    static func brokerName(_ flag: String, _ variable: String?, default value: String, _ summary: String) -> Setting {
        Setting(
            flag: flag, variable: variable, defaultValue: value, defaultDescription: value,
            allowed: "1 to 255 bytes", summary: summary
        ) { text throws(SettingProblem) in
            guard !text.isEmpty, text.utf8.count <= 255 else {
                throw SettingProblem("must be a name of 1 to 255 bytes (\(text.utf8.count) given)")
            }
            return text
        }
    }

    /// The path of a file the command reads: refused at once, with the reason, when it cannot be opened.
    static func readableFile(
        _ flag: String, _ variable: String?, default value: String? = nil, defaultDescription: String,
        _ summary: String
    ) -> Setting {
        Setting(
            flag: flag, variable: variable, defaultValue: value, defaultDescription: defaultDescription,
            allowed: "a readable file", summary: summary
        ) { text throws(SettingProblem) in
            if let problem = ReadableFile.problem(text) { throw SettingProblem(problem) }
            return text
        }
    }
}

extension Setting where Value: CaseIterable & RawRepresentable<String> {
    /// One of `Value`'s cases, by name.
    static func choice(_ flag: String, _ variable: String, default value: Value, _ summary: String) -> Setting {
        let names = Value.allCases.map(\.rawValue)
        return Setting(
            flag: flag, variable: variable, defaultValue: value, defaultDescription: value.rawValue,
            allowed: names.joined(separator: ", "), summary: summary
        ) { text throws(SettingProblem) in
            guard let choice = Value(rawValue: text) else { throw SettingProblem("must be one of \(names.joined(separator: ", "))") }
            return choice
        }
    }
}

extension Setting where Value == Logger.Level {
    /// A log level by name.
    static func logLevel(_ flag: String, _ variable: String?, default value: Logger.Level, _ summary: String) -> Setting
    {
        let names = Logger.Level.allCases.map(\.rawValue)
        return Setting(
            flag: flag, variable: variable, defaultValue: value, defaultDescription: value.rawValue,
            allowed: names.joined(separator: ", "), summary: summary
        ) { text throws(SettingProblem) in
            guard let level = Logger.Level(rawValue: text) else {
                throw SettingProblem("must be one of \(names.joined(separator: ", "))")
            }
            return level
        }
    }
}
