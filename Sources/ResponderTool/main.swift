import RedGreenExample
import ResponderCommands

// `responder`: every command, with Apple's RedGreen sample as its handlers.
await ResponderCommandLine.main(name: "responder", registration: { try RedGreen.register(in: &$0) })
