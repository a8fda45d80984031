/// What an `<Ad>` holds: exactly one of `<InLine>` or `<Wrapper>`.
public enum AdContent: Sendable, Hashable, Encodable {
    /// The ad itself.
    case inLine(InLine)
    /// A redirect to another VAST response, with tracking to merge.
    case wrapper(Wrapper)

    private enum CodingKeys: String, CodingKey { case inLine, wrapper }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .inLine(let v): try c.encode(v, forKey: .inLine)
        case .wrapper(let v): try c.encode(v, forKey: .wrapper)
        }
    }
}
