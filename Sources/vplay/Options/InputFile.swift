import ArgumentParser
import Foundation
import Primitives

/// A file an option reads once, as the command line is parsed, with the path it came from (so no output may
/// replace it).
struct InputFile<Value: Sendable>: Sendable {
    var path: String
    var value: Value
}
