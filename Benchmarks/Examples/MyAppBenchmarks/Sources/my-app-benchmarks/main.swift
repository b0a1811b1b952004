import Foundation
import Strata
import StrataBenchmark

// The app's animation work, as the app writes it.

/// A badge that pulses when a count arrives: a keyframe scale on its layer.
func pulse(_ badge: CALayer) {
    let a = CAKeyframeAnimation(keyPath: "opacity")
    a.values = [1, 0.4, 1]
    a.keyTimes = [0, 0.5, 1]
    a.duration = 0.3
    badge.add(a, forKey: "pulse")
}

/// A card that slides to a new place, fading a little on the way (implicit animations).
func move(_ card: CALayer, to p: CGPoint) {
    CATransaction.begin()
    CATransaction.setAnimationDuration(0.35)
    CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeInEaseOut))
    card.position = p
    card.opacity = card.opacity < 1 ? 1 : 0.9
    CATransaction.commit()
}

// Case 1: pulsing 1,000 badges (adding their animations), then a frame renders them.
StrataBenchmark.register(suite: "my-app", counted: ["my-app/pulse-badges/1000"]) {
    [
        BenchmarkCase("my-app/pulse-badges/1000", items: 1_000, item: "badge", quick: true, resets: true) {
            let root = CALayer()
            let badges = (0..<1_000).map { i -> CALayer in
                let b = CALayer()
                b.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
                b.position = CGPoint(x: Double(i % 40) * 20, y: Double(i / 40) * 20)
                root.addSublayer(b)
                return b
            }
            let renderer = CARenderer(layer: root)
            var t = 0.0
            renderer.renderFrame(atTime: t)
            return Workload(retaining: [root, renderer, badges as AnyObject], reset: {
                t += 10
                renderer.renderFrame(atTime: t)   // every pulse has ended
            }, run: {
                for b in badges { pulse(b) }
                t += 1.0 / 60
                renderer.renderFrame(atTime: t)
            })
        },
        // Case 2: moving 100 cards in one transaction each (the app's `move`).
        BenchmarkCase("my-app/move-cards/100", items: 100, item: "card", quick: true, resets: true) {
            let root = CALayer()
            let cards = (0..<100).map { i -> CALayer in
                let c = CALayer()
                c.bounds = CGRect(x: 0, y: 0, width: 300, height: 80)
                c.position = CGPoint(x: 160, y: Double(i) * 90)
                root.addSublayer(c)
                return c
            }
            let renderer = CARenderer(layer: root)
            var t = 0.0, flip = false
            renderer.renderFrame(atTime: t)
            return Workload(retaining: [root, renderer, cards as AnyObject], reset: {
                t += 10
                renderer.renderFrame(atTime: t)
            }, run: {
                flip.toggle()
                for (i, c) in cards.enumerated() { move(c, to: CGPoint(x: flip ? 200 : 160, y: Double(i) * 90)) }
            })
        },
    ]
}

// The scene: a feed of 300 cards; every frame a few cards move, and every 20 frames ten
// badges pulse.
var feed: [CALayer] = []
var badges: [CALayer] = []
StrataBenchmark.register(scene: SceneBenchmark(
    name: "my-app-feed", description: "300 cards with a badge each; per frame 5 cards move (implicit), every 20 frames 10 badges pulse (keyframes)",
    frames: 600, quickFrames: 120, warmupFrames: 20,
    setUp: { root in
        feed = []; badges = []
        for i in 0..<300 {
            let card = CALayer()
            card.bounds = CGRect(x: 0, y: 0, width: 300, height: 80)
            card.position = CGPoint(x: 160, y: Double(i) * 90)
            card.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            let badge = CALayer()
            badge.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
            badge.position = CGPoint(x: 280, y: 12)
            badge.backgroundColor = CGColor(red: 1, green: 0.2, blue: 0.2, alpha: 1)
            card.addSublayer(badge)
            root.addSublayer(card)
            feed.append(card)
            badges.append(badge)
        }
    },
    frame: { f, _ in
        for k in 0..<5 {
            let i = (f * 5 + k) % feed.count
            move(feed[i], to: CGPoint(x: f % 2 == 0 ? 170 : 150, y: Double(i) * 90))
        }
        if f % 20 == 0 { for k in 0..<10 { pulse(badges[(f + k * 29) % badges.count]) } }
    }))

StrataBenchmark.main()
