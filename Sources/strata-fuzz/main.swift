// Differential fuzzing for local use: `scripts/fuzz --minutes N [--seed S]`.
// Runs generated scripts on both engines until the time is up; every disagreement is shrunk
// and written to Tests/Fixtures/differential/, where the test suite runs it from then on.
import Foundation
import StrataDifferential
import StrataScript

var minutes = 1.0
var seed = UInt64(Date().timeIntervalSince1970)
var fixtures = URL(fileURLWithPath: "Tests/Fixtures/differential")
var length = 60
var args = CommandLine.arguments.dropFirst().makeIterator()
while let a = args.next() {
    switch a {
    case "--minutes": minutes = Double(args.next() ?? "") ?? minutes
    case "--seed": seed = UInt64(args.next() ?? "") ?? seed
    case "--length": length = Int(args.next() ?? "") ?? length
    case "--fixtures": fixtures = URL(fileURLWithPath: args.next() ?? fixtures.path)
    case "--replay":
        // Print both engines' traces for one script file.
        let url = URL(fileURLWithPath: args.next() ?? "")
        let script: Script
        do {
            script = try JSONDecoder().decode(Script.self, from: Data(contentsOf: url))
        } catch {
            FileHandle.standardError.write("strata-fuzz: cannot read script \(url.path): \(error)\n".data(using: .utf8)!)
            exit(3)
        }
        let (fast, reference) = Differential.traces(script)
        print("fast:      \(fast)\nreference: \(reference)")
        print(TraceComparison.firstDifference(fast, reference) ?? "agree")
        exit(0)
    default:
        FileHandle.standardError.write("usage: strata-fuzz [--minutes N] [--seed S] [--length OPS] [--fixtures DIR]\n".data(using: .utf8)!)
        exit(2)
    }
}
Differential.silenceDiagnostics()
let deadline = Date().addingTimeInterval(minutes * 60)
var total = 0, found = 0
print("strata-fuzz: seed \(seed), \(minutes) min")
while Date() < deadline {
    let left = deadline.timeIntervalSinceNow
    let r = Differential.fuzz(firstSeed: seed, seconds: min(left, 10), length: length)
    total += r.ran
    seed &+= UInt64(r.ran)
    if let f = r.finding {
        found += 1
        let url = try Differential.writeFixture(f.shrunk, seed: f.seed, to: fixtures)
        print("disagreement at seed \(f.seed): \(f.message)\n  shrunk to \(f.shrunk.ops.count) ops: \(url.path)")
    }
    print("  \(total) scripts, \(found) disagreements")
}
print("strata-fuzz: \(total) scripts ran, \(found) disagreements")
exit(found == 0 ? 0 : 1)
