/// vplay's version, in one place: `vplay --version`, and the User-Agent of beacon, tag and media requests.
public enum VPlayVersion {
    public static let current = "0.2.0"
}
