import ChatHandlers
import Foundation
import Logging
import Responder

// Replays a fixture (JSON Lines of recorded deliveries) through the chat handlers with the in-memory state store,
// and prints each output as a fixture line on stdout, in input order: what `responder replay` does, with your
// handlers registered instead of RedGreen's. Logs and the summary go to stderr.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: chat-replay FIXTURE.jsonl\n".utf8))
    exit(2)
}
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .info
    return handler
}

var registry = HandlerRegistry()
try Chat.register(in: &registry)
let pipeline = ResponsePipeline(registry: registry, store: InMemoryStateStore())
let summary = try await Replay(pipeline: pipeline).run(
    fixture: URL(fileURLWithPath: CommandLine.arguments[1]),
    onOutput: { line in print(line) },
    onProblem: { problem in FileHandle.standardError.write(Data("chat-replay: \(problem)\n".utf8)) })
FileHandle.standardError.write(Data("chat-replay: \(summary)\n".utf8))
