import StrataBench

/// Every public entry point of the engine (module `Strata`), and the counted bodies that run
/// it: a regression on any path a program takes shows in CI's count gate. A frame and its
/// `presentation()` read-out once slowed by 2x unseen because no counted body took that path
/// (issue 58); `PublicEntryPointTests` reads the module's public symbols from its symbol graph
/// and fails on a symbol no entry here claims, on an entry that claims nothing, and on a body
/// that is not counted.
///
/// An entry is a pattern over a symbol's path (`CALayer.presentation()`, `CATransaction.*`):
/// `*` matches any run of characters, and the first entry that matches a symbol is its entry.
/// A property's entry covers its getter and setter. An entry either names bodies, or says why
/// none is needed: `value` for what does no engine work (an option set's members, an enum's
/// cases, a timing function's hash), `setup` for what a program does once per tree or process
/// (making a renderer, choosing the lookup strategy, recording), with the reason.
public enum PublicEntryPoints {
    public struct Entry: Sendable {
        /// Symbol paths this entry is for (`*` any run of characters).
        public let patterns: [String]
        /// Only properties (symbol kinds `swift.property`, `swift.type.property`): a pattern
        /// over a whole class then claims its properties, and a method added to the class
        /// later is claimed by no entry until one names it.
        public let propertiesOnly: Bool
        /// Counted bodies that run these entry points.
        public let bodies: [String]
        /// Why no body is needed (`bodies` empty), or what the bodies do with it.
        public let note: String
        public let kind: Kind

        public enum Kind: String, Sendable {
            /// Counted bodies run it.
            case covered
            /// No engine work: an option set's members, an enum's cases, a value's equality.
            case value
            /// Once per tree or process: making a renderer, the engine's settings, tooling.
            case setup
            /// Declared so that ported code compiles; no program reaches it here.
            case compatibility
        }
    }

    static func covered(_ patterns: [String], propertiesOnly: Bool = false, _ bodies: [String], _ note: String) -> Entry {
        Entry(patterns: patterns, propertiesOnly: propertiesOnly, bodies: bodies, note: note, kind: .covered)
    }
    static func value(_ patterns: [String], _ note: String) -> Entry {
        Entry(patterns: patterns, propertiesOnly: false, bodies: [], note: note, kind: .value)
    }
    static func setup(_ patterns: [String], _ note: String) -> Entry {
        Entry(patterns: patterns, propertiesOnly: false, bodies: [], note: note, kind: .setup)
    }
    static func compatibility(_ patterns: [String], _ note: String) -> Entry {
        Entry(patterns: patterns, propertiesOnly: false, bodies: [], note: note, kind: .compatibility)
    }

    static let frameKinds = ProgramSuite.Kind.allCases.map { "program/frame/\($0.rawValue)/1000" }

    /// The entries, most specific first.
    public static let entries: [Entry] = [
        // Frames and their read-out.
        covered(["CARenderer.renderFrame(atTime:)"], frameKinds + ["program/frame-readout/10000", "program/transaction/1000"],
                "a frame over explicit animations of each kind, and read out"),
        covered(["CARenderer.beginFrame(atTime:)", "CARenderer.render()", "CARenderer.endFrame()"],
                ["frame/opacity/shared/basic/1000", "frame/position/own/basic/1000", "frame/position/own/spring/1000", "commit/retire/1000"],
                "the frame bodies drive the three steps"),
        covered(["CARenderer.snapshot()"], ["program/snapshot/1000", "program/snapshot-replicator/100", "snapshot/update/balanced/10/1000",
                                           "snapshot/moves/10000"], "the snapshot after a frame: its update, splices, a replicator's full pass"),
        covered(["RenderSnapshot.layer(at:)"], ["program/snapshot/1000"], "items mapped back to layers"),
        covered(["CALayer.runningTransition"], ["program/frame/transition/1000"], "a transition's state, read by a renderer"),
        covered(["CALayer.presentation()"], ["program/presentation/1000", "program/frame-readout/10000", "program/hit-test/20"],
                "copies of the engine's classes and of an app's own"),
        covered(["CALayer.init(layer:)"], ["program/presentation/1000"], "an app's class copied by presentation()"),
        covered(["CALayer.model()"], ["program/model/1000", "program/hit-test/20"], "of model layers and of copies"),
        covered(["CALayer.value(forKeyPath:)", "CALayer.value(forKey:)"], ["program/kvc/100", "program/animations/50"],
                "key paths into values, and an unset custom key"),
        covered(["CALayer.setValue(_:forKeyPath:)", "CALayer.setValue(_:forKey:)"], ["program/kvc-set/100", "program/properties/2"],
                "a key path into a value, a custom key; the toolbox's properties set by key"),
        covered(["CALayerBase.affineTransform()"], ["program/model/1000"], "read from the model"),
        covered(["CALayerBase.setAffineTransform(_:)"], ["program/kvc-set/100"], "set, animating"),
        // Lookups and actions.
        covered(["CALayer.action(forKey:)", "CALayerDelegate.action(for:forKey:)", "View.action(for:forKey:)"],
                ["program/action/1000", "lookup/built-in/chain", "lookup/mix-view-layer/chain", "commit/host-view-nsnull/1000"],
                "the public lookup, and the chain every change walks"),
        covered(["CALayerBase.defaultAction(forKey:)", "CAGradientLayer.defaultAction(forKey:)", "CAReplicatorLayer.defaultAction(forKey:)",
                 "CATextLayer.defaultAction(forKey:)"],
                ["program/action/1000", "lookup/built-in/interned"], "the class's step of the chain"),
        covered(["CALayer.invalidateActionCache()"], ["lookup/built-in/cached"], "the cached strategy's memo, which it invalidates"),
        covered(["CAAction.run(forKey:object:arguments:)", "CAAnimation.run(forKey:object:arguments:)"],
                ["commit/implicit/1000", "commit/actions-dictionary/1000"], "the action found, run for each change"),
        value(["NSNull.run(forKey:object:arguments:)"], "does nothing: NSNull is the chain's stop marker and is never run by the engine"),
        // Changes and transactions.
        covered(["CATransaction.begin()", "CATransaction.commit(file:line:)", "CATransaction.flush()", "CATransaction.lock()",
                 "CATransaction.unlock()", "CATransaction.setAnimationDuration(_:)", "CATransaction.animationDuration()",
                 "CATransaction.setAnimationTimingFunction(_:)", "CATransaction.animationTimingFunction()",
                 "CATransaction.setDisableActions(_:)", "CATransaction.disableActions()", "CATransaction.setCompletionBlock(_:)",
                 "CATransaction.completionBlock()", "CATransaction.setValue(_:forKey:)", "CATransaction.value(forKey:)"],
                ["program/transaction/1000", "commit/implicit/1000", "commit/implicit-over-running/1000"],
                "begin, the settings, a completion block, commit, flush, the lock"),
        covered(["CALayer.add(_:forKey:)"], ["commit/explicit-basic/1000", "commit/explicit-keyframe/1000", "program/animations/50",
                                           "program/make-animations/20"], "explicit animations of every kind added"),
        covered(["CALayer.animation(forKey:)", "CALayer.animationKeys()", "CALayer.removeAnimation(forKey:)", "CALayer.removeAllAnimations()"],
                ["program/animations/50", "program/make-animations/20"], "read back and removed"),
        covered(["CALayer.addSublayer(_:)", "CALayer.insertSublayer(_:at:)", "CALayer.insertSublayer(_:above:)",
                 "CALayer.insertSublayer(_:below:)", "CALayer.replaceSublayer(_:with:)", "CALayer.removeFromSuperlayer()",
                 "CALayer.sublayers", "CALayer.superlayer"],
                ["program/tree-edits/1000", "snapshot/moves/10000", "program/layer-churn/100"], "tree edits in a transaction, and the frame"),
        covered(["CALayer.init()", "CALayer.layer()", "CALayerBase.init()"],
                ["program/layer-churn/100"], "layers of each class made, and released"),
        compatibility(["CALayer.init(coder:)"],
                      "Apple's subclass shape (`required init?(coder:)`) compiles; nothing unarchives layers here (no nibs), and it makes a layer as init() does"),
        // Hit testing and conversion.
        covered(["CALayerBase.hitTest(_:)", "CATransformLayer.hitTest(_:)"], ["program/hit-test/20"],
                "on the model and presentation trees, a transform layer among them"),
        covered(["CALayerBase.contains(_:)", "CALayer.convert(_:from:)", "CALayer.convert(_:to:)", "CALayer.convertTime(_:from:)",
                 "CALayer.convertTime(_:to:)"], ["program/convert/100", "program/hit-test/20"], "points, rectangles and times"),
        // Drawing.
        covered(["CALayerBase.display()", "CALayerBase.displayIfNeeded()", "CALayerBase.draw(in:)", "CALayer.drawContents()", "CALayerBase.needsDisplay()",
                 "CALayerBase.setNeedsDisplay()", "CALayerBase.setNeedsDisplay(_:)", "CALayerBase.render(in:)", "CALayer.presentationDrawing",
                 "CALayerBase.needsDisplay(forKey:)", "CALayerDelegate.display(_:)", "CALayerDelegate.draw(_:in:)",
                 "CALayerDelegate.layerWillDraw(_:)", "View.display(_:)", "View.draw(_:in:)", "View.layerWillDraw(_:)"],
                ["program/display/40"], "marked layers drawn at the commit, a tree rendered, rings drawn by the frame"),
        covered(["CALayer.defaultValue(forKey:)", "CAGradientLayer.defaultValue(forKey:)", "CAReplicatorLayer.defaultValue(forKey:)",
                 "CATextLayer.defaultValue(forKey:)"], ["program/kvc/100", "program/display/40"], "an unset key's value"),
        covered(["CAReplicatorLayer.effectiveInstanceColor(at:)", "CAReplicatorLayer.effectiveInstanceTransform(at:)"],
                ["program/snapshot-replicator/100"], "a replicator's instances read by a renderer"),
        // Every property of the layer classes: set (actions disabled: the setters' own paths)
        // and read; the animated set path is the change every commit body makes.
        covered(["CALayer.*", "CAShapeLayer.*", "CAGradientLayer.*", "CATextLayer.*", "CAReplicatorLayer.*"], propertiesOnly: true,
                ["program/properties/2", "commit/implicit/1000", "program/model/1000"],
                "every property set and read back; implicit changes animate through the commit path"),
        // Animation objects: made, configured, added.
        covered(["CAAnimation.copy()", "CAAnimation.copy(with:)"], ["commit/explicit-basic/1000", "program/make-animations/20"],
                "add(_:forKey:) copies the animation"),
        covered(["CAAnimation.init()", "CAAnimation.animation()", "CAPropertyAnimation.init(keyPath:)", "CASpringAnimation.init()",
                 "CASpringAnimation.init(perceptualDuration:bounce:)", "CAAnimation.defaultValue(forKey:)",
                 "CAAnimation.setValue(_:forKey:)", "CAAnimation.value(forKey:)"],
                ["program/make-animations/20", "program/animations/50"], "made each way; values by key"),
        covered(["CAAnimation.*", "CABasicAnimation.*", "CAPropertyAnimation.*", "CAKeyframeAnimation.*", "CASpringAnimation.*",
                 "CAAnimationGroup.*", "CATransition.*"], propertiesOnly: true,
                ["program/make-animations/20", "program/animations/50", "commit/explicit-basic/1000"],
                "every class configured as real code does, and added"),
        covered(["CAMediaTimingFunction.init(name:)", "CAMediaTimingFunction.init(controlPoints:_:_:_:)",
                 "CAMediaTimingFunction.evaluate(at:)", "CAMediaTimingFunction.getControlPoint(at:values:)"],
                ["program/make-animations/20"], "made and evaluated"),
        value(["CAMediaTimingFunction.description", "CAMediaTimingFunction.hash", "CAMediaTimingFunction.isEqual(_:)"],
              "NSObject's description and equality of a value"),
        covered(["CAAnimationDelegate.animationDidStart(_:)", "CAAnimationDelegate.animationDidStop(_:finished:)"],
                ["program/animations/50", "program/property-animator/10"], "delegates told of starts and stops"),
        covered(["CACurrentMediaTime()"], ["program/make-animations/20"], "a begin time from the clock"),
        // UIKit's role.
        covered(["View.animate(withDuration:animations:completion:)", "View.animate(withDuration:delay:options:animations:completion:)",
                 "View.performWithoutAnimation(_:)"], ["program/view-animate/100", "program/view-transition/100"],
                "a block moving views, a change without animation inside"),
        covered(["View.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:animations:completion:)"],
                ["program/view-spring/100"], "a spring block"),
        covered(["View.animateKeyframes(withDuration:delay:options:animations:completion:)",
                 "View.addKeyframe(withRelativeStartTime:relativeDuration:animations:)"], ["program/view-keyframes/10"], "a keyframe block"),
        covered(["View.transition(with:duration:options:animations:completion:)", "View.transition(from:to:duration:options:completion:)"],
                ["program/view-transition/100"], "views swapped behind a transition"),
        covered(["View.init(frame:)", "View.layerClass", "View.addSubview(_:)", "View.removeFromSuperview()", "View.subviews", "View.superview"],
                ["program/layer-churn/100", "program/view-transition/100"], "views made, added and swapped"),
        covered(["View.*"], propertiesOnly: true, ["program/properties/2", "program/view-animate/100"], "a view's properties set and read"),
        value(["View.AnimationOptions*", "View.KeyframeAnimationOptions*", "View.AnimationCurve*", "ViewAnimatingPosition*",
               "ViewAnimatingState*", "ActionLookupStrategy*"], "option sets and enums: values a call takes"),
        covered(["ViewPropertyAnimator.init(duration:curve:animations:)", "ViewPropertyAnimator.init(duration:controlPoint1:controlPoint2:animations:)",
                 "ViewPropertyAnimator.init(duration:dampingRatio:animations:)", "ViewPropertyAnimator.addAnimations(_:)",
                 "ViewPropertyAnimator.addCompletion(_:)", "ViewPropertyAnimator.startAnimation()", "ViewPropertyAnimator.startAnimation(afterDelay:)",
                 "ViewPropertyAnimator.pauseAnimation()", "ViewPropertyAnimator.continueAnimation(withTimingParameters:durationFactor:)",
                 "ViewPropertyAnimator.stopAnimation(_:)", "ViewPropertyAnimator.finishAnimation(at:)",
                 "ViewPropertyAnimator.animationDidStart(_:)", "ViewPropertyAnimator.animationDidStop(_:finished:)"],
                ["program/property-animator/10"], "made each way, started, paused, scrubbed, continued, stopped and finished"),
        covered(["ViewPropertyAnimator.*"], propertiesOnly: true, ["program/property-animator/10"], "set and read while it runs"),
        // Set once.
        setup(["CARenderer.init(layer:)", "CARenderer.layer"], "a renderer is made once per tree"),
        setup(["StrataEngine.*"], "the engine's settings (lookup strategy, render threads) and counts for tests and reports"),
        setup(["StrataDiagnostics.*"], "where diagnostics go, and capturing them in tests"),
        setup(["StrataRecording.*"], "recording a program for replay: a tool, not a program's path (commit/recorded prices its hooks)"),
    ]

    /// Whether `pattern` (with `*` for any run of characters) matches `path` whole.
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        let p = Array(pattern.utf8), s = Array(path.utf8)
        var i = 0, j = 0, star = -1, mark = 0
        while j < s.count {
            if i < p.count && p[i] == UInt8(ascii: "*") { star = i; mark = j; i += 1 }
            else if i < p.count && p[i] == s[j] { i += 1; j += 1 }
            else if star >= 0 { i = star + 1; mark += 1; j = mark }
            else { return false }
        }
        while i < p.count && p[i] == UInt8(ascii: "*") { i += 1 }
        return i == p.count
    }

    /// Whether a symbol graph kind (`swift.property` ...) is a property's.
    public static func isProperty(_ kind: String) -> Bool { kind == "swift.property" || kind == "swift.type.property" }

    /// The first entry claiming the symbol at `path` of symbol graph kind `kind`, and which of
    /// its patterns did.
    public static func entry(for path: String, kind: String) -> (entry: Entry, pattern: String)? {
        for e in entries where !e.propertiesOnly || isProperty(kind) {
            if let p = e.patterns.first(where: { matches($0, path) }) { return (e, p) }
        }
        return nil
    }
}
