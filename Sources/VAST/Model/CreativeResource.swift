/// A displayable resource of a Companion, NonLinear or Icon.
public enum CreativeResource: Sendable, Hashable, Codable {
    /// `<StaticResource creativeType="image/png">url</StaticResource>`.
    case staticResource(creativeType: String?, url: String)
    /// `<IFrameResource>url</IFrameResource>`.
    case iframe(url: String)
    /// `<HTMLResource>html or url</HTMLResource>`.
    case html(String)
}
