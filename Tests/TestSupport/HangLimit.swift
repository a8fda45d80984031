import Testing

extension Trait where Self == TimeLimitTrait {
    /// The one time limit the suites set: a guard against a hang, never a verdict on speed. It is far above what any
    /// test takes on a 2-core machine running the whole suite beside two CPU-bound processes (measured: docs/testing.md),
    /// so a slow machine never fails a test that works; a test that hangs still ends.
    public static var hangLimit: Self { .timeLimit(.minutes(10)) }
}
