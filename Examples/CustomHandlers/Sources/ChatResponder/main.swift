import ChatHandlers
import ResponderCommands

await ResponderCommandLine.main(registration: { try Chat.register(in: &$0) })
