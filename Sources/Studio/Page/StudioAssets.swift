/// The studio's page: HTML, CSS and JavaScript shipped inside the binary (nothing fetched from anywhere else; the
/// Content-Security-Policy allows only the studio's own origin). The page is `StudioPage.html` with the launch's
/// token in a `<meta>`; `studio.css` and `studio.js` are served as they are.
public enum StudioAssets {
    /// `/` with the token the page sends back in `X-Studio-Token`.
    public static func page(token: String) -> String {
        html.replacingOccurrences(of: "{{TOKEN}}", with: token)
    }

    /// The assets by path, with their content types.
    public static let files: [String: (type: String, text: String)] = [
        "studio.css": ("text/css; charset=utf-8", css),
        "studio.js": ("text/javascript; charset=utf-8", script),
    ]
}
