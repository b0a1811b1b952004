/// A chart's canvas: the whole SVG's size and the rectangle inside the margins where data is
/// drawn (y grows downwards: `top` < `bottom`).
struct PlotArea {
    var width: Double
    var height: Double
    var left: Double
    var top: Double
    var right: Double
    var bottom: Double

    /// A canvas `width` × `height` with the given margins.
    init(width: Double, height: Double, marginLeft: Double, marginTop: Double, marginRight: Double, marginBottom: Double) {
        self.width = width
        self.height = height
        self.left = marginLeft
        self.top = marginTop
        self.right = width - marginRight
        self.bottom = height - marginBottom
    }

    var plotWidth: Double { right - left }
    var plotHeight: Double { bottom - top }

    /// The plot rectangle's outline (drawn under the data).
    var frame: String { SVG.rect(left, top, plotWidth, plotHeight, cls: "plot-bg") }
}
