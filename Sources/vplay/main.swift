import Dispatch
import Glibc
import Primitives
import PlayerEngine

// Before anything opens a descriptor: a closed stdout must not become the next file vplay opens.
OutputFile.holdStandardDescriptors()
// First thing: SIGINT and SIGTERM go to SignalWatch (a handler and a thread of its own), before anything can start.
SignalWatch.install()
// A reader that went away (`vplay … | head -c 1`) is a failed write (EPIPE) that vplay reports, not a death.
signal(SIGPIPE, SIG_IGN)
// Large decoder buffers are unmapped when freed, not kept by malloc (`MediaMemoryPolicy`).
MediaMemoryPolicy.apply()
Task { await VPlay.entry() }
dispatchMain()
