import PlayerEngine
import VAST

/// A single ad, or an ad pod.
enum BreakKind: Sendable { case single, pod }
