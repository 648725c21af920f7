// The intake's mapping, failure routing and topology are part of the worker's API.
@_exported import ResponderIntake
