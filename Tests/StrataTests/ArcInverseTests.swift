import XCTest
@testable import Strata

/// The inverse arc-length table of paced segments (`CompiledKeyframes.inverseTable`): the
/// parameter it gives at a fraction of the length, by interpolation or by the exact
/// fallback, lands within twice the table's tolerance (1e-9 of the length, checked at three
/// points of each interpolated interval when the table is built) of that fraction along the
/// curve, on smooth curves, curves that nearly stop, curves with a cusp, straight lines and
/// one-lane keyframes.
final class ArcInverseTests: XCTestCase {
    private let bound = 2 * CompiledKeyframes.inverseTolerance

    /// A segment's cubic coefficients (a, b, c, d per lane) from Bézier control points.
    private func bezier(_ p: [(Double, Double)]) -> [Double] {
        var co: [Double] = []
        for v in [p.map(\.0), p.map(\.1)] {
            co += [-v[0] + 3 * v[1] - 3 * v[2] + v[3], 3 * v[0] - 6 * v[1] + 3 * v[2], -3 * v[0] + 3 * v[1], v[0]]
        }
        return co
    }

    /// Fraction of the segment's length reached at parameter s, to full precision: the
    /// adaptive rule on pieces 1/256 wide (a cusp's kink falls in one small piece), from the
    /// cumulative lengths `cum` at the pieces' ends.
    private func fraction(_ co: [Double], _ width: Int, _ s: Double, cum: [Double]) -> Double {
        let length = cum[256]
        if width == 1 { return CompiledKeyframes.length1D(co, 0, 0, s) / length }
        let i = min(Int(s * 256), 255)
        return (cum[i] + CompiledKeyframes.adaptiveLength(co, 0, width, Double(i) / 256, s, tolerance: 1e-15 * length))
            / length
    }

    /// Cumulative lengths at the ends of 256 equal pieces of the parameter.
    private func cumulative(_ co: [Double], _ width: Int) -> [Double] {
        var cum = [0.0]
        let estimate = width == 1 ? 1 : CompiledKeyframes.gaussLength(co, 0, width, 0, 1)
        for i in 0..<256 {
            let piece = width == 1
                ? CompiledKeyframes.length1D(co, 0, Double(i) / 256, Double(i + 1) / 256)
                : CompiledKeyframes.adaptiveLength(co, 0, width, Double(i) / 256, Double(i + 1) / 256,
                                                      tolerance: 1e-16 * estimate)
            cum.append(cum[i] + piece)
        }
        return cum
    }

    /// The worst distance, as a fraction of the length, between where `invertArc` puts x and
    /// x, over evenly spaced fractions, the table's points and their neighbours; and how many
    /// of the intervals are marked exact.
    private func check(_ co: [Double], width: Int, _ what: String) -> (worst: Double, exact: Int) {
        let (length, table) = KeyframeCompiler.arcTable(co, segment: 0, width: width)
        XCTAssertEqual(table.count, CompiledKeyframes.arcStride, what)
        XCTAssertGreaterThan(length, 0, what)
        let cum = cumulative(co, width)
        XCTAssertEqual(cum[256], length, accuracy: 1e-12 * length, what)
        let k = CompiledKeyframes.inverseSamples
        var xs = (0...300).map { Double($0) / 300 }
        for j in 0...k {
            let x = Double(j) / Double(k)
            xs += [x, x.nextUp, x.nextDown, x + 0.5 / Double(k), x + 0.9 / Double(k)]
        }
        var worst = 0.0, previous = -1.0
        for x in xs.filter({ $0 >= 0 && $0 <= 1 }).sorted() {
            let s = CompiledKeyframes.invertArc(x, table: table, tableBase: 0, coefficients: co, coefficientBase: 0,
                                                width: width)
            XCTAssertTrue(s >= 0 && s <= 1, "\(what): s = \(s) at \(x)")
            XCTAssertGreaterThanOrEqual(s, previous - 1e-12, "\(what): the parameter goes back at \(x)")
            previous = s
            let e = abs(fraction(co, width, s, cum: cum) - x)
            worst = max(worst, e)
        }
        XCTAssertEqual(CompiledKeyframes.invertArc(0, table: table, tableBase: 0, coefficients: co, coefficientBase: 0,
                                                   width: width), 0, what)
        XCTAssertEqual(CompiledKeyframes.invertArc(1, table: table, tableBase: 0, coefficients: co, coefficientBase: 0,
                                                   width: width), 1, what)
        let exact = (0..<k).filter { table[3 * $0 + 1] < 0 }.count
        return (worst, exact)
    }

    func test_smoothCurves_areInterpolatedEverywhere_withinTolerance() {
        // The frame benchmark's curves and a few others that never slow down.
        for y in [0.0, 5, 9, 60] {
            let r = check(bezier([(0, 150), (75, y), (225, 300), (300, 150)]), width: 2, "curve \(y)")
            XCTAssertLessThan(r.worst, bound, "curve \(y)")
            XCTAssertEqual(r.exact, 0, "curve \(y): every interval interpolated")
        }
        let arcish = check(bezier([(0, 0), (0, 55), (45, 100), (100, 100)]), width: 2, "quarter circle")
        XCTAssertLessThan(arcish.worst, bound)
        XCTAssertEqual(arcish.exact, 0)
    }

    func test_curvesThatStop_useTheExactSolveThere() {
        // A cusp (the speed is 0 at s = 0.5) and a curve that crawls at its start.
        let cusp = check(bezier([(0, 0), (100, 100), (0, 100), (100, 0)]), width: 2, "cusp")
        XCTAssertLessThan(cusp.worst, bound, "cusp")
        XCTAssertGreaterThan(cusp.exact, 0, "the cusp's intervals are solved exactly")
        XCTAssertLessThan(cusp.exact, CompiledKeyframes.inverseSamples, "the rest is interpolated")
        let crawl = check(bezier([(0, 0), (0, 0), (0, 0), (300, 10)]), width: 2, "crawl")
        XCTAssertLessThan(crawl.worst, bound, "crawl")
        XCTAssertGreaterThan(crawl.exact, 0)
    }

    func test_straightLine_isTheIdentity() {
        let co: [Double] = [0, 0, 300, 10, 0, 0, -40, 5]
        let (length, table) = KeyframeCompiler.arcTable(co, segment: 0, width: 2)
        XCTAssertEqual(length, 300 * (1 + 40.0 * 40 / 90_000).squareRoot(), accuracy: 1e-9)
        for x in stride(from: 0.0, through: 1, by: 0.01) {
            XCTAssertEqual(CompiledKeyframes.invertArc(x, table: table, tableBase: 0, coefficients: co,
                                                       coefficientBase: 0, width: 2), x, accuracy: 1e-12)
        }
    }

    func test_scatteredCurves_withinTolerance() {
        // 12 curves whose control points are spread over [-200, 200] by two coprime strides.
        func coordinate(_ n: Int, _ k: Int) -> Double { Double((n * 7919 + k * 104_729) % 401) - 200 }
        for n in 0..<12 {
            let p = (0..<4).map { (coordinate(n, 2 * $0), coordinate(n + 17, 2 * $0 + 1)) }
            let r = check(bezier(p), width: 2, "curve \(n) \(p)")
            XCTAssertLessThan(r.worst, bound, "curve \(n) \(p)")
        }
    }

    func test_oneLane_keyframes_withinTolerance() {
        // One lane that turns back at s = 0.5 (its speed is 0 there) and one that does not.
        for co in [[0.0, -1.5, 1.5, 0], [2.0, -3, 3, 1]] {
            let r = check(co, width: 1, "one lane \(co)")
            XCTAssertLessThan(r.worst, bound, "one lane \(co)")
        }
    }

    func test_notANumber_givesTheStart() {
        let co = bezier([(0, 150), (75, 9), (225, 300), (300, 150)])
        let (_, table) = KeyframeCompiler.arcTable(co, segment: 0, width: 2)
        XCTAssertEqual(CompiledKeyframes.invertArc(.nan, table: table, tableBase: 0, coefficients: co,
                                                   coefficientBase: 0, width: 2), 0)
    }

    func test_segmentOfNoLength_isEven() {
        let co: [Double] = [0, 0, 0, 7, 0, 0, 0, 9]
        let (length, table) = KeyframeCompiler.arcTable(co, segment: 0, width: 2)
        XCTAssertEqual(length, 0)
        XCTAssertEqual(CompiledKeyframes.invertArc(0.3, table: table, tableBase: 0, coefficients: co,
                                                   coefficientBase: 0, width: 2), 0.3, accuracy: 1e-15)
    }
}
