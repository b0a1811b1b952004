import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// The action lookup chain (SEMANTICS.md "Action lookup"): delegate -> actions -> style (and its
/// nested "style") -> class defaultAction(forKey:) -> built-in, where nil continues and NSNull
/// stops; order events; when the lookup happens; what running an action does.
///
/// Every test runs once per `ActionLookupStrategy`; failure messages name the strategy.
final class ActionLookupTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
        DefaultActionLayer.opacityAction.reset()
    }

    override func tearDown() {
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
        super.tearDown()
    }

    /// Runs `body` once for each lookup strategy, with that strategy selected on this thread;
    /// `context` names the strategy, for assertion messages.
    private func forEachStrategy(file: StaticString = #filePath, line: UInt = #line,
                                 _ body: (_ context: String) throws -> Void) rethrows {
        XCTAssertEqual(Set(ActionLookupStrategy.allCases), [.chain, .interned, .cached], file: file, line: line)
        for strategy in ActionLookupStrategy.allCases {
            CATransaction.flush()
            DefaultActionLayer.opacityAction.reset()
            StrataEngine.actionLookupStrategy = strategy
            XCTAssertEqual(StrataEngine.actionLookupStrategy, strategy, file: file, line: line)
            try body("[lookup strategy .\(strategy.rawValue)]")
        }
        StrataEngine.actionLookupStrategy = .interned
    }

    // MARK: The chain, step by step

    func test_delegateActionEndsTheSearch() {
        forEachStrategy { ctx in
            let fromDelegate = RecordingAction(), fromActions = RecordingAction(), fromStyle = RecordingAction()
            let delegate = ClosureLayerDelegate { _, key in key == "opacity" ? fromDelegate : nil }
            let scene = Scene(DefaultActionLayer()) { layer in
                layer.delegate = delegate
                layer.actions = ["opacity": fromActions]
                layer.style = ["actions": ["opacity": fromStyle] as [String: CAAction]]
            }
            XCTAssertIdentical(scene.layer.action(forKey: "opacity") as AnyObject?, fromDelegate, ctx)

            scene.layer.opacity = 0.5
            XCTAssertEqual(fromDelegate.events, ["opacity"], ctx)
            XCTAssertIdentical(fromDelegate.objects.first, scene.layer, ctx)
            XCTAssertEqual(fromActions.events + fromStyle.events + DefaultActionLayer.opacityAction.events, [], ctx)
            XCTAssertEqual(animationKeys(of: scene.layer), [], "the custom action added nothing. \(ctx)")
        }
    }

    func test_nilFromDelegateContinuesToActions() {
        forEachStrategy { ctx in
            let fromActions = RecordingAction()
            let delegate = ClosureLayerDelegate { _, _ in nil }
            let scene = Scene(CALayer()) { layer in
                layer.delegate = delegate
                layer.actions = ["opacity": fromActions]
            }
            XCTAssertIdentical(scene.layer.action(forKey: "opacity") as AnyObject?, fromActions, ctx)
            XCTAssertTrue(delegate.askedKeys.contains("opacity"), "the delegate was asked first. \(ctx)")
            XCTAssertIdentical(delegate.askedLayers.last, scene.layer, ctx)

            scene.layer.opacity = 0.5
            XCTAssertEqual(fromActions.events, ["opacity"], ctx)
        }
    }

    func test_nsNullFromDelegateStopsLookup() {
        forEachStrategy { ctx in
            let fromActions = RecordingAction()
            let delegate = ClosureLayerDelegate { _, _ in NSNull() }
            let scene = Scene(CALayer()) { layer in
                layer.delegate = delegate
                layer.actions = ["opacity": fromActions]
            }
            XCTAssertNil(scene.layer.action(forKey: "opacity"), ctx)
            XCTAssertNil(scene.layer.action(forKey: "position"), "not even the built-in action. \(ctx)")

            scene.layer.opacity = 0.5
            scene.layer.position = CGPoint(x: 3, y: 4)
            XCTAssertEqual(fromActions.events, [], ctx)
            XCTAssertEqual(animationKeys(of: scene.layer), [], ctx)
        }
    }

    func test_nsNullInActionsStopsLookup() {
        forEachStrategy { ctx in
            let fromStyle = RecordingAction()
            let scene = Scene(DefaultActionLayer()) { layer in
                layer.actions = ["opacity": NSNull(), "bounds": NSNull()]
                layer.style = ["actions": ["opacity": fromStyle] as [String: CAAction]]
            }
            XCTAssertNil(scene.layer.action(forKey: "opacity"), ctx)
            XCTAssertNil(scene.layer.action(forKey: "bounds"), ctx)

            scene.layer.opacity = 0.5
            scene.layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            XCTAssertEqual(fromStyle.events + DefaultActionLayer.opacityAction.events, [], ctx)
            XCTAssertEqual(animationKeys(of: scene.layer), [], ctx)
        }
    }

    func test_keyMissingFromActionsContinuesToStyle() {
        forEachStrategy { ctx in
            let other = RecordingAction(), fromStyle = RecordingAction()
            let scene = Scene(CALayer()) { layer in
                layer.actions = ["position": other]
                layer.style = ["actions": ["opacity": fromStyle] as [String: CAAction]]
            }
            XCTAssertIdentical(scene.layer.action(forKey: "opacity") as AnyObject?, fromStyle, ctx)
            scene.layer.opacity = 0.5
            XCTAssertEqual(fromStyle.events, ["opacity"], ctx)
            XCTAssertEqual(other.events, [], ctx)
        }
    }

    func test_nsNullInStyleStopsLookupBeforeClassDefault() {
        forEachStrategy { ctx in
            let scene = Scene(DefaultActionLayer()) { layer in
                layer.style = ["actions": ["opacity": NSNull()] as [String: CAAction]]
            }
            XCTAssertNil(scene.layer.action(forKey: "opacity"), ctx)
            scene.layer.opacity = 0.5
            XCTAssertEqual(DefaultActionLayer.opacityAction.events, [], ctx)
            XCTAssertEqual(animationKeys(of: scene.layer), [], ctx)
        }
    }

    func test_nestedStyleDictionaryIsSearchedRecursively() {
        forEachStrategy { ctx in
            let outer = RecordingAction(), inner = RecordingAction(), deep = RecordingAction()
            let layer = DefaultActionLayer()

            layer.style = ["style": ["style": ["actions": ["opacity": deep] as [String: CAAction]] as [AnyHashable: Any]]
                as [AnyHashable: Any]]
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, deep, "two levels down. \(ctx)")

            layer.style = [
                "actions": ["opacity": outer] as [String: CAAction],
                "style": ["actions": ["opacity": inner, "position": inner] as [String: CAAction]] as [AnyHashable: Any],
            ]
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, outer, "the outer style first. \(ctx)")
            XCTAssertIdentical(layer.action(forKey: "position") as AnyObject?, inner, ctx)

            layer.style = ["style": ["actions": ["opacity": NSNull()] as [String: CAAction]] as [AnyHashable: Any]]
            XCTAssertNil(layer.action(forKey: "opacity"), "NSNull in a nested style stops the search too. \(ctx)")

            layer.style = ["style": ["actions": ["position": inner] as [String: CAAction]] as [AnyHashable: Any]]
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, DefaultActionLayer.opacityAction,
                               "a key no style has goes on to defaultAction(forKey:). \(ctx)")
        }
    }

    /// What the walk passes over and what it reads late: a value that is not an action does not
    /// hide a nested style's action for the same key; a Foundation dictionary changed after it
    /// was put in the style is read as it is at the lookup (the style holds the reference); a
    /// style edited in place takes effect when it is set again (it is a value).
    func test_styleIsReadAsItIsAtTheLookup() {
        forEachStrategy { ctx in
            let outer = RecordingAction(), inner = RecordingAction()
            let layer = DefaultActionLayer()
            layer.style = [
                "actions": ["opacity": 5, "position": outer] as [String: Any],
                "style": ["actions": ["opacity": inner] as [String: CAAction]] as [AnyHashable: Any],
            ]
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, inner,
                               "a number is not an action: the nested style answers. \(ctx)")
            XCTAssertIdentical(layer.action(forKey: "position") as AnyObject?, outer, ctx)

            let shared = NSMutableDictionary()
            shared["opacity"] = outer
            layer.style = ["actions": shared]
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, outer, ctx)
            shared["opacity"] = inner
            shared["position"] = NSNull()
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, inner,
                               "the dictionary as it is now. \(ctx)")
            XCTAssertNil(layer.action(forKey: "position"), ctx)

            var style: [AnyHashable: Any] = ["actions": ["opacity": outer] as [String: CAAction]]
            layer.style = style
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, outer, ctx)
            style["actions"] = ["opacity": inner] as [String: CAAction]
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, outer, "the layer holds its own copy. \(ctx)")
            layer.style = style
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, inner, "set again. \(ctx)")
            layer.style = nil
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, DefaultActionLayer.opacityAction, ctx)
        }
    }

    func test_classDefaultActionIsConsultedAfterStyle() {
        forEachStrategy { ctx in
            let scene = Scene(DefaultActionLayer())
            XCTAssertIdentical(scene.layer.action(forKey: "opacity") as AnyObject?, DefaultActionLayer.opacityAction, ctx)
            XCTAssertNil(scene.layer.action(forKey: "position"), "NSNull from defaultAction(forKey:) stops. \(ctx)")
            XCTAssertTrue(scene.layer.action(forKey: "cornerRadius") is CABasicAnimation,
                          "nil from defaultAction(forKey:) goes on to the built-in action. \(ctx)")

            scene.layer.opacity = 0.5
            scene.layer.position = CGPoint(x: 9, y: 9)
            scene.layer.cornerRadius = 5
            XCTAssertEqual(DefaultActionLayer.opacityAction.events, ["opacity"], ctx)
            XCTAssertIdentical(DefaultActionLayer.opacityAction.objects.first, scene.layer, ctx)
            XCTAssertEqual(animationKeys(of: scene.layer), ["cornerRadius"], ctx)
        }
    }

    func test_baseClassDefaultActionIsNil() {
        forEachStrategy { ctx in
            XCTAssertNil(CALayer.defaultAction(forKey: "opacity"), ctx)
            XCTAssertNil(CALayer.defaultAction(forKey: "position"), ctx)
            XCTAssertNil(CAShapeLayer.defaultAction(forKey: "strokeEnd"), ctx)
        }
    }

    func test_builtInActionIsTheLastResort() {
        forEachStrategy { ctx in
            let layer = CALayer()
            for key in ["anchorPoint", "backgroundColor", "borderColor", "borderWidth", "bounds", "contentsRect",
                        "cornerRadius", "hidden", "masksToBounds", "opacity", "position", "shadowColor",
                        "shadowOffset", "shadowOpacity", "shadowPath", "shadowRadius", "sublayerTransform",
                        "transform", "zPosition"] {
                XCTAssertTrue(layer.action(forKey: key) is CABasicAnimation, "built-in action for \(key). \(ctx)")
            }
            let contents = layer.action(forKey: "contents") as? CATransition
            XCTAssertEqual(contents?.type, .fade, "contents fades. \(ctx)")
            for key in ["filters", "backgroundFilters", "compositingFilter"] {
                XCTAssertTrue(layer.action(forKey: key) is CATransition, "built-in action for \(key). \(ctx)")
            }
            for key in ["doubleSided", "frame", "myCustomKey", kCAOnOrderIn, kCAOnOrderOut, kCATransition] {
                XCTAssertNil(layer.action(forKey: key), "no built-in action for \(key). \(ctx)")
            }

            let shape = CAShapeLayer()
            for key in ["strokeStart", "strokeEnd", "lineWidth", "fillColor", "strokeColor", "path", "opacity"] {
                XCTAssertTrue(shape.action(forKey: key) is CABasicAnimation, "CAShapeLayer's \(key). \(ctx)")
            }
        }
    }

    func test_everyAnimatablePropertyChangeAddsAnimationUnderItsKey() {
        forEachStrategy { ctx in
            let startPath = CGMutablePath()
            startPath.move(to: .zero)
            startPath.addLine(to: CGPoint(x: 10, y: 0))
            let endPath = CGMutablePath()
            endPath.move(to: .zero)
            endPath.addLine(to: CGPoint(x: 0, y: 10))
            let grey = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
            let scene = Scene(CALayer()) { layer in
                layer.backgroundColor = grey
                layer.borderColor = grey
                layer.shadowPath = startPath
            }
            let layer = scene.layer
            let colour = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            inTransaction {
                layer.anchorPoint = CGPoint(x: 0, y: 0)
                layer.backgroundColor = colour
                layer.borderColor = colour
                layer.borderWidth = 2
                layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
                layer.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 0.5)
                layer.cornerRadius = 3
                layer.isHidden = true
                layer.masksToBounds = true
                layer.opacity = 0.5
                layer.position = CGPoint(x: 7, y: 7)
                layer.shadowColor = colour
                layer.shadowOffset = CGSize(width: 1, height: 1)
                layer.shadowOpacity = 0.5
                layer.shadowPath = endPath
                layer.shadowRadius = 6
                layer.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
                layer.transform = CATransform3DMakeScale(3, 3, 1)
                layer.zPosition = 4
                layer.isDoubleSided = false
            }
            XCTAssertEqual(Set(animationKeys(of: layer)), [
                "anchorPoint", "backgroundColor", "borderColor", "borderWidth", "bounds", "contentsRect",
                "cornerRadius", "hidden", "masksToBounds", "opacity", "position", "shadowColor", "shadowOffset",
                "shadowOpacity", "shadowPath", "shadowRadius", "sublayerTransform", "transform", "zPosition",
            ], "doubleSided has no implied animation. \(ctx)")

            let shapeScene = Scene(CAShapeLayer()) { shape in
                shape.path = startPath
                shape.strokeColor = grey
            }
            let shape = shapeScene.layer
            inTransaction {
                shape.strokeStart = 0.1
                shape.strokeEnd = 0.9
                shape.lineWidth = 3
                shape.fillColor = colour
                shape.strokeColor = colour
                shape.path = endPath
            }
            XCTAssertEqual(Set(animationKeys(of: shape)),
                           ["strokeStart", "strokeEnd", "lineWidth", "fillColor", "strokeColor", "path"], ctx)
        }
    }

    // MARK: When the lookup happens, and what running an action does

    func test_lookupHappensBeforeTheModelChanges() {
        forEachStrategy { ctx in
            var seen: [String: Double] = [:]
            var seenPosition: CGPoint?
            let delegate = ClosureLayerDelegate { layer, key in
                switch key {
                case "opacity":
                    seen["value(forKey:)"] = numericValue(layer.value(forKey: "opacity"))
                    seen["property"] = Double(layer.opacity)
                case "position":
                    seenPosition = layer.position
                case "progress":
                    seen["custom"] = numericValue(layer.value(forKey: "progress"))
                default:
                    break
                }
                return nil
            }
            let scene = Scene(CALayer()) { layer in
                layer.position = CGPoint(x: 1, y: 2)
                layer.setValue(NSNumber(value: 0.25), forKey: "progress")
            }
            scene.layer.delegate = delegate

            scene.layer.opacity = 0.5
            scene.layer.position = CGPoint(x: 30, y: 40)
            scene.layer.setValue(NSNumber(value: 0.75), forKey: "progress")

            XCTAssertEqual(seen["value(forKey:)"], 1, "value(forKey:) during the lookup is the old value. \(ctx)")
            XCTAssertEqual(seen["property"], 1, ctx)
            XCTAssertEqual(seenPosition, CGPoint(x: 1, y: 2), ctx)
            XCTAssertEqual(seen["custom"], 0.25, ctx)
            XCTAssertEqual(scene.layer.opacity, 0.5, "and the model has changed after the setter. \(ctx)")
            XCTAssertEqual(numericValue(scene.layer.value(forKey: "progress")), 0.75, ctx)
        }
    }

    func test_customActionRunReceivesKeyAndLayer() throws {
        try forEachStrategy { ctx in
            let action = RecordingAction()
            let scene = Scene(CALayer()) { layer in layer.actions = ["opacity": action] }
            scene.layer.opacity = 0.3
            XCTAssertEqual(action.events, ["opacity"], ctx)
            XCTAssertEqual(action.objects.count, 1, ctx)
            XCTAssertIdentical(action.objects.first, scene.layer, ctx)

            scene.frame(at: 0.1)
            XCTAssertEqual(animationKeys(of: scene.layer), [], ctx)
            XCTAssertEqual(Double(try scene.presented().opacity), 0.3, accuracy: 1e-6,
                           "an action that animates nothing leaves the change immediate. \(ctx)")
        }
    }

    func test_actionForKeyDoesNotRunTheAction() {
        forEachStrategy { ctx in
            let action = RecordingAction()
            let layer = CALayer()
            layer.actions = ["opacity": action]
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, action, ctx)
            XCTAssertEqual(action.events, [], ctx)
        }
    }

    func test_customKeySetWithSetValueLooksUpItsAction() {
        forEachStrategy { ctx in
            let action = RecordingAction()
            let scene = Scene(CALayer()) { layer in layer.actions = ["progress": action] }
            scene.layer.setValue(NSNumber(value: 7), forKey: "progress")
            XCTAssertEqual(action.events, ["progress"], ctx)
            XCTAssertIdentical(action.objects.first, scene.layer, ctx)
            XCTAssertEqual(numericValue(scene.layer.value(forKey: "progress")), 7, ctx)
        }
    }

    func test_implicitActionAddsCopyFromOldToNewWithTransactionDuration() throws {
        try forEachStrategy { ctx in
            let scene = Scene(CALayer())
            inTransaction(duration: 1.5) { scene.layer.opacity = 0.25 }
            let added = try XCTUnwrap(scene.layer.animation(forKey: "opacity") as? CABasicAnimation, ctx)
            XCTAssertEqual(added.keyPath, "opacity", ctx)
            XCTAssertEqual(numericValue(added.fromValue), 1, ctx)
            XCTAssertEqual(numericValue(added.toValue), 0.25, ctx)
            XCTAssertEqual(added.duration, 1.5, ctx)
        }
    }

    func test_basicAnimationInActionsAnimatesOldToNewWithItsOwnDuration() throws {
        try forEachStrategy { ctx in
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.duration = 1
            let scene = Scene(CALayer()) { layer in layer.actions = ["opacity": fade] }
            scene.layer.opacity = 0.2
            scene.frame(at: 1)
            XCTAssertEqual(animationKeys(of: scene.layer), ["opacity"], ctx)
            XCTAssertEqual(Double(try scene.presented().opacity), 1, accuracy: 1e-6, ctx)
            scene.frame(at: 1.5)
            XCTAssertEqual(Double(try scene.presented().opacity), lerp(1, 0.2, 0.5), accuracy: 1e-6,
                           "linear: neither the action nor the transaction has a timing function. \(ctx)")
            scene.frame(at: 2)
            XCTAssertEqual(animationKeys(of: scene.layer), [], ctx)
            XCTAssertNil(fade.fromValue, "the action in the dictionary is not modified, a copy is added. \(ctx)")
        }
    }

    func test_styleAnimationTakesTransactionDurationAndTimingFunction() throws {
        try forEachStrategy { ctx in
            let anim = CABasicAnimation(keyPath: "opacity")
            let scene = Scene(CALayer()) { layer in layer.style = ["actions": ["opacity": anim]] }
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
            scene.layer.opacity = 0
            CATransaction.commit()
            scene.frame(at: 1)
            XCTAssertEqual(Double(try scene.presented().opacity), lerp(1, 0, ReferenceCurve.easeIn.progress(atFraction: 0.5)),
                           accuracy: 1e-6, ctx)
        }
    }

    // MARK: Order events

    func test_addSublayerRunsOrderInOnTheAddedLayer() {
        forEachStrategy { ctx in
            let orderIn = RecordingAction(), parentOrderIn = RecordingAction()
            let scene = Scene(CALayer()) { layer in layer.actions = [kCAOnOrderIn: parentOrderIn] }
            let child = CALayer()
            child.actions = [kCAOnOrderIn: orderIn]
            scene.layer.addSublayer(child)
            XCTAssertEqual(orderIn.events, [kCAOnOrderIn], ctx)
            XCTAssertIdentical(orderIn.objects.first, child, ctx)
            XCTAssertEqual(parentOrderIn.events, [], "the superlayer is not ordered in. \(ctx)")
        }
    }

    func test_insertSublayerRunsOrderIn() {
        forEachStrategy { ctx in
            let orderIn = RecordingAction()
            let scene = Scene(CALayer()) { layer in layer.addSublayer(CALayer()) }
            let child = CALayer()
            child.actions = [kCAOnOrderIn: orderIn]
            scene.layer.insertSublayer(child, at: 0)
            XCTAssertEqual(orderIn.events, [kCAOnOrderIn], ctx)
            XCTAssertIdentical(scene.layer.sublayers?.first, child, ctx)
            XCTAssertEqual(scene.layer.sublayers?.count, 2, ctx)
        }
    }

    func test_removeFromSuperlayerRunsOrderOut() {
        forEachStrategy { ctx in
            let orderOut = RecordingAction(), orderIn = RecordingAction()
            let scene = Scene(CALayer()) { layer in
                layer.actions = [kCAOnOrderOut: orderOut, kCAOnOrderIn: orderIn]
            }
            scene.layer.removeFromSuperlayer()
            XCTAssertEqual(orderOut.events, [kCAOnOrderOut], ctx)
            XCTAssertIdentical(orderOut.objects.first, scene.layer, ctx)
            XCTAssertEqual(orderIn.events, [], ctx)
            XCTAssertEqual(scene.root.sublayers?.count ?? 0, 0, ctx)
        }
    }

    func test_hidingRunsOrderOutAndShowingRunsOrderIn() {
        forEachStrategy { ctx in
            let orderOut = RecordingAction(), orderIn = RecordingAction(), hidden = RecordingAction()
            let scene = Scene(CALayer()) { layer in
                layer.actions = [kCAOnOrderOut: orderOut, kCAOnOrderIn: orderIn, "hidden": hidden]
            }
            scene.layer.isHidden = true
            XCTAssertEqual(orderOut.events, [kCAOnOrderOut], ctx)
            XCTAssertEqual(hidden.events, ["hidden"], "the property's own action runs too. \(ctx)")
            XCTAssertEqual(orderIn.events, [], ctx)

            scene.layer.isHidden = false
            XCTAssertEqual(orderIn.events, [kCAOnOrderIn], ctx)
            XCTAssertEqual(orderOut.events, [kCAOnOrderOut], ctx)
            XCTAssertEqual(hidden.events, ["hidden", "hidden"], ctx)
        }
    }

    func test_orderEventsAskTheDelegateWithTheLayer() {
        forEachStrategy { ctx in
            let delegate = ClosureLayerDelegate { _, _ in nil }
            let scene = Scene(CALayer())
            let child = CALayer()
            child.delegate = delegate
            scene.layer.addSublayer(child)
            XCTAssertTrue(delegate.askedKeys.contains(kCAOnOrderIn), ctx)
            XCTAssertIdentical(delegate.askedLayers.last, child, ctx)
            child.removeFromSuperlayer()
            XCTAssertTrue(delegate.askedKeys.contains(kCAOnOrderOut), ctx)
        }
    }

    func test_orderInAnimationIsAddedUnderTheEventKey() throws {
        try forEachStrategy { ctx in
            let fadeIn = CABasicAnimation(keyPath: "opacity")
            fadeIn.fromValue = 0.0
            fadeIn.toValue = 1.0
            fadeIn.duration = 1
            let scene = Scene(CALayer())
            let child = CALayer()
            child.actions = [kCAOnOrderIn: fadeIn]
            scene.layer.addSublayer(child)
            scene.frame(at: 1)
            XCTAssertEqual(animationKeys(of: child), [kCAOnOrderIn], ctx)
            scene.frame(at: 1.5)
            XCTAssertEqual(Double(try XCTUnwrap(child.presentation(), ctx).opacity), 0.5, accuracy: 1e-6, ctx)
            scene.frame(at: 2)
            XCTAssertEqual(animationKeys(of: child), [], ctx)
        }
    }

    // MARK: disableActions

    func test_disableActionsPreventsPropertyAndOrderActions() {
        forEachStrategy { ctx in
            let property = RecordingAction(), orderIn = RecordingAction(), orderOut = RecordingAction()
            let hiddenOut = RecordingAction()
            let scene = Scene(CALayer()) { layer in layer.actions = ["opacity": property] }
            let leaving = CALayer(), arriving = CALayer(), hiding = CALayer()
            leaving.actions = [kCAOnOrderOut: orderOut]
            arriving.actions = [kCAOnOrderIn: orderIn]
            hiding.actions = [kCAOnOrderOut: hiddenOut]
            withActionsDisabled {
                scene.root.addSublayer(leaving)
                scene.root.addSublayer(hiding)
            }

            CATransaction.begin()
            CATransaction.setDisableActions(true)
            scene.layer.opacity = 0.5
            scene.layer.position = CGPoint(x: 5, y: 5)
            scene.root.addSublayer(arriving)
            leaving.removeFromSuperlayer()
            hiding.isHidden = true
            CATransaction.commit()

            XCTAssertEqual(property.events + orderIn.events + orderOut.events + hiddenOut.events, [], ctx)
            XCTAssertEqual(animationKeys(of: scene.layer), [], ctx)
            XCTAssertEqual(animationKeys(of: hiding), [], ctx)
            XCTAssertEqual(scene.layer.opacity, 0.5, "the model still changes. \(ctx)")
            XCTAssertEqual(scene.root.sublayers?.count, 3, ctx)
        }
    }

    func test_disableActionsDoesNotChangeWhatLookupFinds() {
        forEachStrategy { ctx in
            let action = RecordingAction()
            let custom = CALayer()
            custom.actions = ["opacity": action]
            let plain = CALayer()
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            XCTAssertIdentical(custom.action(forKey: "opacity") as AnyObject?, action, ctx)
            XCTAssertTrue(plain.action(forKey: "opacity") is CABasicAnimation, ctx)
            CATransaction.commit()
        }
    }

    // MARK: Lookup results follow changes (what a cache must invalidate)

    func test_lookupFollowsChangesToActionsStyleAndDelegate() {
        forEachStrategy { ctx in
            let fromStyle = RecordingAction(), fromDelegate = RecordingAction(), fromActions = RecordingAction()
            let delegate = ClosureLayerDelegate { _, key in key == "opacity" ? fromDelegate : nil }
            let layer = CALayer()
            XCTAssertTrue(layer.action(forKey: "opacity") is CABasicAnimation, ctx)

            layer.actions = ["opacity": NSNull()]
            XCTAssertNil(layer.action(forKey: "opacity"), ctx)
            layer.actions?["opacity"] = fromActions
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, fromActions, ctx)
            layer.actions = nil
            XCTAssertTrue(layer.action(forKey: "opacity") is CABasicAnimation, ctx)

            layer.style = ["actions": ["opacity": fromStyle] as [String: CAAction]]
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, fromStyle, ctx)
            layer.style = nil
            XCTAssertTrue(layer.action(forKey: "opacity") is CABasicAnimation, ctx)

            layer.delegate = delegate
            XCTAssertIdentical(layer.action(forKey: "opacity") as AnyObject?, fromDelegate, ctx)
            layer.delegate = nil
            XCTAssertTrue(layer.action(forKey: "opacity") is CABasicAnimation, ctx)
        }
    }

    func test_releasedDelegateNoLongerAnswers() {
        forEachStrategy { ctx in
            let layer = CALayer()
            var delegate: ClosureLayerDelegate? = ClosureLayerDelegate { _, _ in NSNull() }
            layer.delegate = delegate
            XCTAssertNil(layer.action(forKey: "opacity"), ctx)
            delegate = nil
            XCTAssertNil(layer.delegate, "the delegate is weak. \(ctx)")
            XCTAssertTrue(layer.action(forKey: "opacity") is CABasicAnimation, ctx)
        }
    }

    func test_lookupResultsDoNotLeakBetweenLayers() {
        forEachStrategy { ctx in
            let plain = CALayer(), silenced = CALayer(), subclassed = DefaultActionLayer()
            XCTAssertTrue(plain.action(forKey: "opacity") is CABasicAnimation, ctx)
            silenced.actions = ["opacity": NSNull()]
            XCTAssertNil(silenced.action(forKey: "opacity"), ctx)
            XCTAssertIdentical(subclassed.action(forKey: "opacity") as AnyObject?, DefaultActionLayer.opacityAction, ctx)
            XCTAssertTrue(plain.action(forKey: "opacity") is CABasicAnimation, ctx)
            XCTAssertTrue(CALayer().action(forKey: "opacity") is CABasicAnimation, ctx)
            XCTAssertIdentical(DefaultActionLayer().action(forKey: "opacity") as AnyObject?,
                               DefaultActionLayer.opacityAction, ctx)
        }
    }
}

/// A layer class whose `defaultAction(forKey:)` answers a fixed action for "opacity", NSNull
/// for "position", and defers to CALayer otherwise. Its answers never change, so a strategy may
/// memoise them.
private final class DefaultActionLayer: CALayer {
    static let opacityAction = RecordingAction()

    override class func defaultAction(forKey event: String) -> CAAction? {
        switch event {
        case "opacity": return opacityAction
        case "position": return NSNull()
        default: return super.defaultAction(forKey: event)
        }
    }
}
