#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open media file's descriptor, closed exactly once. Confined to one connection's event loop; the
/// descriptor number alone crosses to the blocking thread pool for `pread`, and ``close()`` is only
/// called when no read is in flight.
final class SinkMediaFile {
    let descriptor: Int32
    private var isOpen = true

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = systemClose(descriptor)
    }

    deinit {
        close()
    }
}

/// `close(2)`, under a name the file class's own `close()` does not hide.
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
