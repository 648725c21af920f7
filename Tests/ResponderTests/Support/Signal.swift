/// A one-shot signal between handlers: `wait()` returns once `fire()` was called, before or after.
actor Signal {
    private var fired = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func fire() {
        fired = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }

    func wait() async {
        if fired { return }
        await withCheckedContinuation { waiting.append($0) }
    }
}
