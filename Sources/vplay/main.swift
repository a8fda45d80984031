import Dispatch
import PlayerEngine

// First thing: SIGINT and SIGTERM go to SignalWatch (a handler and a thread of its own), before anything can start.
SignalWatch.install()
// Large decoder buffers are unmapped when freed, not kept by malloc (`MediaMemoryPolicy`).
MediaMemoryPolicy.apply()
Task { await VPlay.entry() }
dispatchMain()
