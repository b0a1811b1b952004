// QuartzCore's constants by their Objective-C names (`kCAFillModeForwards` ...), which Swift
// code written before Swift 4.2 uses. Apple's SDK now offers them only under their typed
// spellings (`CAMediaTimingFillMode.forwards`); here each is the typed value, so such code
// compiles unchanged where the property takes the typed value, with a warning naming the
// spelling to move to.

// CAMediaTimingFillMode
/// QuartzCore's older name of `CAMediaTimingFillMode.forwards`.
@available(*, deprecated, renamed: "CAMediaTimingFillMode.forwards")
public let kCAFillModeForwards = CAMediaTimingFillMode.forwards
/// QuartzCore's older name of `CAMediaTimingFillMode.backwards`.
@available(*, deprecated, renamed: "CAMediaTimingFillMode.backwards")
public let kCAFillModeBackwards = CAMediaTimingFillMode.backwards
/// QuartzCore's older name of `CAMediaTimingFillMode.both`.
@available(*, deprecated, renamed: "CAMediaTimingFillMode.both")
public let kCAFillModeBoth = CAMediaTimingFillMode.both
/// QuartzCore's older name of `CAMediaTimingFillMode.removed`.
@available(*, deprecated, renamed: "CAMediaTimingFillMode.removed")
public let kCAFillModeRemoved = CAMediaTimingFillMode.removed

// CAMediaTimingFunctionName
/// QuartzCore's older name of `CAMediaTimingFunctionName.linear`.
@available(*, deprecated, renamed: "CAMediaTimingFunctionName.linear")
public let kCAMediaTimingFunctionLinear = CAMediaTimingFunctionName.linear
/// QuartzCore's older name of `CAMediaTimingFunctionName.easeIn`.
@available(*, deprecated, renamed: "CAMediaTimingFunctionName.easeIn")
public let kCAMediaTimingFunctionEaseIn = CAMediaTimingFunctionName.easeIn
/// QuartzCore's older name of `CAMediaTimingFunctionName.easeOut`.
@available(*, deprecated, renamed: "CAMediaTimingFunctionName.easeOut")
public let kCAMediaTimingFunctionEaseOut = CAMediaTimingFunctionName.easeOut
/// QuartzCore's older name of `CAMediaTimingFunctionName.easeInEaseOut`.
@available(*, deprecated, renamed: "CAMediaTimingFunctionName.easeInEaseOut")
public let kCAMediaTimingFunctionEaseInEaseOut = CAMediaTimingFunctionName.easeInEaseOut
/// QuartzCore's older name of `CAMediaTimingFunctionName.default`.
@available(*, deprecated, renamed: "CAMediaTimingFunctionName.default")
public let kCAMediaTimingFunctionDefault = CAMediaTimingFunctionName.`default`

// CAAnimationCalculationMode
/// QuartzCore's older name of `CAAnimationCalculationMode.linear`.
@available(*, deprecated, renamed: "CAAnimationCalculationMode.linear")
public let kCAAnimationLinear = CAAnimationCalculationMode.linear
/// QuartzCore's older name of `CAAnimationCalculationMode.discrete`.
@available(*, deprecated, renamed: "CAAnimationCalculationMode.discrete")
public let kCAAnimationDiscrete = CAAnimationCalculationMode.discrete
/// QuartzCore's older name of `CAAnimationCalculationMode.paced`.
@available(*, deprecated, renamed: "CAAnimationCalculationMode.paced")
public let kCAAnimationPaced = CAAnimationCalculationMode.paced
/// QuartzCore's older name of `CAAnimationCalculationMode.cubic`.
@available(*, deprecated, renamed: "CAAnimationCalculationMode.cubic")
public let kCAAnimationCubic = CAAnimationCalculationMode.cubic
/// QuartzCore's older name of `CAAnimationCalculationMode.cubicPaced`.
@available(*, deprecated, renamed: "CAAnimationCalculationMode.cubicPaced")
public let kCAAnimationCubicPaced = CAAnimationCalculationMode.cubicPaced

// CAAnimationRotationMode
/// QuartzCore's older name of `CAAnimationRotationMode.rotateAuto`.
@available(*, deprecated, renamed: "CAAnimationRotationMode.rotateAuto")
public let kCAAnimationRotateAuto = CAAnimationRotationMode.rotateAuto
/// QuartzCore's older name of `CAAnimationRotationMode.rotateAutoReverse`.
@available(*, deprecated, renamed: "CAAnimationRotationMode.rotateAutoReverse")
public let kCAAnimationRotateAutoReverse = CAAnimationRotationMode.rotateAutoReverse

// CATransitionType
/// QuartzCore's older name of `CATransitionType.fade`.
@available(*, deprecated, renamed: "CATransitionType.fade")
public let kCATransitionFade = CATransitionType.fade
/// QuartzCore's older name of `CATransitionType.moveIn`.
@available(*, deprecated, renamed: "CATransitionType.moveIn")
public let kCATransitionMoveIn = CATransitionType.moveIn
/// QuartzCore's older name of `CATransitionType.push`.
@available(*, deprecated, renamed: "CATransitionType.push")
public let kCATransitionPush = CATransitionType.push
/// QuartzCore's older name of `CATransitionType.reveal`.
@available(*, deprecated, renamed: "CATransitionType.reveal")
public let kCATransitionReveal = CATransitionType.reveal

// CATransitionSubtype
/// QuartzCore's older name of `CATransitionSubtype.fromRight`.
@available(*, deprecated, renamed: "CATransitionSubtype.fromRight")
public let kCATransitionFromRight = CATransitionSubtype.fromRight
/// QuartzCore's older name of `CATransitionSubtype.fromLeft`.
@available(*, deprecated, renamed: "CATransitionSubtype.fromLeft")
public let kCATransitionFromLeft = CATransitionSubtype.fromLeft
/// QuartzCore's older name of `CATransitionSubtype.fromTop`.
@available(*, deprecated, renamed: "CATransitionSubtype.fromTop")
public let kCATransitionFromTop = CATransitionSubtype.fromTop
/// QuartzCore's older name of `CATransitionSubtype.fromBottom`.
@available(*, deprecated, renamed: "CATransitionSubtype.fromBottom")
public let kCATransitionFromBottom = CATransitionSubtype.fromBottom

// CALayerContentsGravity
/// QuartzCore's older name of `CALayerContentsGravity.center`.
@available(*, deprecated, renamed: "CALayerContentsGravity.center")
public let kCAGravityCenter = CALayerContentsGravity.center
/// QuartzCore's older name of `CALayerContentsGravity.top`.
@available(*, deprecated, renamed: "CALayerContentsGravity.top")
public let kCAGravityTop = CALayerContentsGravity.top
/// QuartzCore's older name of `CALayerContentsGravity.bottom`.
@available(*, deprecated, renamed: "CALayerContentsGravity.bottom")
public let kCAGravityBottom = CALayerContentsGravity.bottom
/// QuartzCore's older name of `CALayerContentsGravity.left`.
@available(*, deprecated, renamed: "CALayerContentsGravity.left")
public let kCAGravityLeft = CALayerContentsGravity.left
/// QuartzCore's older name of `CALayerContentsGravity.right`.
@available(*, deprecated, renamed: "CALayerContentsGravity.right")
public let kCAGravityRight = CALayerContentsGravity.right
/// QuartzCore's older name of `CALayerContentsGravity.topLeft`.
@available(*, deprecated, renamed: "CALayerContentsGravity.topLeft")
public let kCAGravityTopLeft = CALayerContentsGravity.topLeft
/// QuartzCore's older name of `CALayerContentsGravity.topRight`.
@available(*, deprecated, renamed: "CALayerContentsGravity.topRight")
public let kCAGravityTopRight = CALayerContentsGravity.topRight
/// QuartzCore's older name of `CALayerContentsGravity.bottomLeft`.
@available(*, deprecated, renamed: "CALayerContentsGravity.bottomLeft")
public let kCAGravityBottomLeft = CALayerContentsGravity.bottomLeft
/// QuartzCore's older name of `CALayerContentsGravity.bottomRight`.
@available(*, deprecated, renamed: "CALayerContentsGravity.bottomRight")
public let kCAGravityBottomRight = CALayerContentsGravity.bottomRight
/// QuartzCore's older name of `CALayerContentsGravity.resize`.
@available(*, deprecated, renamed: "CALayerContentsGravity.resize")
public let kCAGravityResize = CALayerContentsGravity.resize
/// QuartzCore's older name of `CALayerContentsGravity.resizeAspect`.
@available(*, deprecated, renamed: "CALayerContentsGravity.resizeAspect")
public let kCAGravityResizeAspect = CALayerContentsGravity.resizeAspect
/// QuartzCore's older name of `CALayerContentsGravity.resizeAspectFill`.
@available(*, deprecated, renamed: "CALayerContentsGravity.resizeAspectFill")
public let kCAGravityResizeAspectFill = CALayerContentsGravity.resizeAspectFill

// CAShapeLayerLineCap
/// QuartzCore's older name of `CAShapeLayerLineCap.butt`.
@available(*, deprecated, renamed: "CAShapeLayerLineCap.butt")
public let kCALineCapButt = CAShapeLayerLineCap.butt
/// QuartzCore's older name of `CAShapeLayerLineCap.round`.
@available(*, deprecated, renamed: "CAShapeLayerLineCap.round")
public let kCALineCapRound = CAShapeLayerLineCap.round
/// QuartzCore's older name of `CAShapeLayerLineCap.square`.
@available(*, deprecated, renamed: "CAShapeLayerLineCap.square")
public let kCALineCapSquare = CAShapeLayerLineCap.square

// CAShapeLayerLineJoin
/// QuartzCore's older name of `CAShapeLayerLineJoin.miter`.
@available(*, deprecated, renamed: "CAShapeLayerLineJoin.miter")
public let kCALineJoinMiter = CAShapeLayerLineJoin.miter
/// QuartzCore's older name of `CAShapeLayerLineJoin.round`.
@available(*, deprecated, renamed: "CAShapeLayerLineJoin.round")
public let kCALineJoinRound = CAShapeLayerLineJoin.round
/// QuartzCore's older name of `CAShapeLayerLineJoin.bevel`.
@available(*, deprecated, renamed: "CAShapeLayerLineJoin.bevel")
public let kCALineJoinBevel = CAShapeLayerLineJoin.bevel

// CAShapeLayerFillRule
/// QuartzCore's older name of `CAShapeLayerFillRule.nonZero`.
@available(*, deprecated, renamed: "CAShapeLayerFillRule.nonZero")
public let kCAFillRuleNonZero = CAShapeLayerFillRule.nonZero
/// QuartzCore's older name of `CAShapeLayerFillRule.evenOdd`.
@available(*, deprecated, renamed: "CAShapeLayerFillRule.evenOdd")
public let kCAFillRuleEvenOdd = CAShapeLayerFillRule.evenOdd

// CAGradientLayerType
/// QuartzCore's older name of `CAGradientLayerType.axial`.
@available(*, deprecated, renamed: "CAGradientLayerType.axial")
public let kCAGradientLayerAxial = CAGradientLayerType.axial
/// QuartzCore's older name of `CAGradientLayerType.radial`.
@available(*, deprecated, renamed: "CAGradientLayerType.radial")
public let kCAGradientLayerRadial = CAGradientLayerType.radial
/// QuartzCore's older name of `CAGradientLayerType.conic`.
@available(*, deprecated, renamed: "CAGradientLayerType.conic")
public let kCAGradientLayerConic = CAGradientLayerType.conic

// CATextLayerAlignmentMode
/// QuartzCore's older name of `CATextLayerAlignmentMode.natural`.
@available(*, deprecated, renamed: "CATextLayerAlignmentMode.natural")
public let kCAAlignmentNatural = CATextLayerAlignmentMode.natural
/// QuartzCore's older name of `CATextLayerAlignmentMode.left`.
@available(*, deprecated, renamed: "CATextLayerAlignmentMode.left")
public let kCAAlignmentLeft = CATextLayerAlignmentMode.left
/// QuartzCore's older name of `CATextLayerAlignmentMode.right`.
@available(*, deprecated, renamed: "CATextLayerAlignmentMode.right")
public let kCAAlignmentRight = CATextLayerAlignmentMode.right
/// QuartzCore's older name of `CATextLayerAlignmentMode.center`.
@available(*, deprecated, renamed: "CATextLayerAlignmentMode.center")
public let kCAAlignmentCenter = CATextLayerAlignmentMode.center
/// QuartzCore's older name of `CATextLayerAlignmentMode.justified`.
@available(*, deprecated, renamed: "CATextLayerAlignmentMode.justified")
public let kCAAlignmentJustified = CATextLayerAlignmentMode.justified

// CATextLayerTruncationMode
/// QuartzCore's older name of `CATextLayerTruncationMode.none`.
@available(*, deprecated, renamed: "CATextLayerTruncationMode.none")
public let kCATruncationNone = CATextLayerTruncationMode.none
/// QuartzCore's older name of `CATextLayerTruncationMode.start`.
@available(*, deprecated, renamed: "CATextLayerTruncationMode.start")
public let kCATruncationStart = CATextLayerTruncationMode.start
/// QuartzCore's older name of `CATextLayerTruncationMode.end`.
@available(*, deprecated, renamed: "CATextLayerTruncationMode.end")
public let kCATruncationEnd = CATextLayerTruncationMode.end
/// QuartzCore's older name of `CATextLayerTruncationMode.middle`.
@available(*, deprecated, renamed: "CATextLayerTruncationMode.middle")
public let kCATruncationMiddle = CATextLayerTruncationMode.middle
