/// Why a text is not a value of a setting: `must be a whole number from 1 to 65535`.
struct SettingProblem: Error {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
