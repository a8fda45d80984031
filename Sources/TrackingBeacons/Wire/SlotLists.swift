import NIOCore
import Primitives

/// A host pool's free slots, a list per event loop. The loops are few (one per core): a linear search over them
/// finds a list, and each list is changed in place. (A dictionary of lists, changed through its subscript's
/// `modify`, allocated three times for each slot taken.)
struct SlotLists<Slot: Sendable>: Sendable {
    private(set) var loops: [ObjectIdentifier] = []
    private(set) var lists: [[Slot]] = []

    /// The last slot listed for `loop`, taken off its list.
    mutating func pop(on loop: ObjectIdentifier) -> Slot? {
        guard let index = loops.firstIndex(of: loop) else { return nil }
        return lists[index].popLast()
    }

    mutating func push(_ slot: Slot, on loop: ObjectIdentifier) {
        if let index = loops.firstIndex(of: loop) {
            lists[index].append(slot)
        } else {
            loops.append(loop)
            lists.append([slot])
        }
    }

    mutating func removeAll() {
        loops.removeAll()
        lists.removeAll()
    }
}
