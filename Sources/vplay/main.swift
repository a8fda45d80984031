import Dispatch

// First thing: SIGINT and SIGTERM go to SignalWatch (a handler and a thread of its own), before anything can start.
SignalWatch.install()
Task { await VPlay.entry() }
dispatchMain()
