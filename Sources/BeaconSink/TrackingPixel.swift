/// The classic 1×1 transparent GIF that ad servers answer tracking requests with.
enum TrackingPixel {
    /// The GIF89a image, 43 bytes, byte for byte the pixel most ad servers send
    /// (`R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==`): header, a 1×1 logical screen with a 2-colour table, a graphic
    /// control extension that marks colour 0 transparent, and one LZW-coded pixel.
    static let bytes: [UInt8] = [
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61,  // "GIF89a"
        0x01, 0x00, 0x01, 0x00,  // width 1, height 1
        0x80, 0x00, 0x00,  // global colour table of 2 entries, background 0, aspect 0
        0xFF, 0xFF, 0xFF,  // colour 0: white (made transparent below)
        0x00, 0x00, 0x00,  // colour 1: black
        0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00,  // graphic control: colour 0 transparent
        0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,  // image descriptor 1×1 at 0,0
        0x02, 0x02, 0x44, 0x01, 0x00,  // LZW minimum code size 2, one 2-byte data block, terminator
        0x3B,  // trailer
    ]

    /// `Content-Type` of ``bytes``.
    static let contentType = "image/gif"
}
