/// The frame budgets every scene chart marks, in ms.
enum FrameBudget {
    static let hz60 = 1000.0 / 60
    static let hz120 = 1000.0 / 120

    /// Both budget lines on an x axis of frame times.
    static func verticalMarkers(_ x: Scale, area: PlotArea, within16: Double? = nil, within8: Double? = nil, labelsAtBottom: Bool = false) -> String {
        let s16 = within16.map { ": \(Format.percent($0)) of frames within" } ?? ""
        let s8 = within8.map { ": \(Format.percent($0)) of frames within" } ?? ""
        return Axis.verticalMarker(x, area: area, value: hz120, label: "8.33 ms", cls: "budget8", labelRow: 0, labelAtBottom: labelsAtBottom,
                                   tooltip: "120 Hz frame budget, 8.33 ms\(s8)")
            + Axis.verticalMarker(x, area: area, value: hz60, label: "16.67 ms", cls: "budget16", labelRow: 1, labelAtBottom: labelsAtBottom,
                                  tooltip: "60 Hz frame budget, 16.67 ms\(s16)")
    }

    /// Both budget lines on a y axis of frame times.
    static func horizontalMarkers(_ y: Scale, area: PlotArea) -> String {
        Axis.horizontalMarker(y, area: area, value: hz120, label: "8.33 ms (120 Hz)", cls: "budget8", tooltip: "120 Hz frame budget, 8.33 ms")
            + Axis.horizontalMarker(y, area: area, value: hz60, label: "16.67 ms (60 Hz)", cls: "budget16", tooltip: "60 Hz frame budget, 16.67 ms")
    }

    /// Frame-time axis ticks in ms.
    static func tick(_ ms: Double) -> String { Format.ms(ms, compactZeros: true) }
}
