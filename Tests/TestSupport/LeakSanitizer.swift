import Foundation

/// LeakSanitizer hooks for `scripts/sanitize.sh address`; they do nothing in a normal build.
///
/// Two Foundation classes the tests use are never freed on Linux: `Process` (a reference cycle inside
/// swift-corelibs-foundation; a ten-line program that runs `/bin/true` and waits leaks it too, see
/// swiftlang/swift-corelibs-foundation#3260) and `XMLDocument` (its libxml2 tree). They are only used by tests —
/// to run the built `vplay` and `ffprobe`, and to read JUnit and SVG output — so the tests
/// mark each such object, and everything it references, as not a leak. Anything else that leaks still fails the run.
public enum LeakSanitizer {
    /// Tells LeakSanitizer that `object` (and what it references) is deliberately never freed.
    @discardableResult
    public static func ignore<Object: AnyObject>(_ object: Object) -> Object {
        if let ignoreObject { ignoreObject(Unmanaged.passUnretained(object).toOpaque()) }
        return object
    }

    private typealias IgnoreObject = @convention(c) (UnsafeRawPointer?) -> Void

    /// `__lsan_ignore_object`, present only when the process was linked with AddressSanitizer.
    private static let ignoreObject: IgnoreObject? = dlsym(nil, "__lsan_ignore_object").map { unsafeBitCast($0, to: IgnoreObject.self) }
}
