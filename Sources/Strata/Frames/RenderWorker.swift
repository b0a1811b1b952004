import Foundation
import Synchronization

/// A second core for `render()` and the render snapshot: a worker thread of the engine,
/// started on first use, that evaluates the upper half of a large lane track's blocks (or
/// computes the upper half of a large snapshot's items) while the rendering thread does the
/// lower half.
///
/// Hand-off: the job is a handful of plain fields published by a sequence number (release /
/// acquire atomics), so a split frame allocates nothing and takes no lock. Waking a sleeping
/// thread costs tens to hundreds of microseconds on a VM, as much as the work at 1e5
/// animations, so the worker spins for a while after each job (and `prepare()` wakes it at
/// the start of `render()`, overlapping the wake-up with the timing pass) before it sleeps on
/// a semaphore.
final class RenderWorker {
    private let job = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    private let sleeping = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    /// Spins of the idle worker before it sleeps (about a millisecond).
    private static let idleSpins = 200_000

    /// The job posted last: written before `post()`, read by the worker after it sees the
    /// new sequence number, cleared by `wait()`.
    @exclusivity(unchecked) private var laneJob: LaneJob?
    @exclusivity(unchecked) private var task: (any WorkerTask)?
    @exclusivity(unchecked) private var quit = false
    @exclusivity(unchecked) private var posted = 0

    init() {
        // The thread holds the worker until `stop()`.
        let thread = Thread { [self] in loop() }
        thread.name = "strata-render-worker"
        thread.start()
    }

    private func loop() {
        var seen = 0
        while true {
            var spins = 0
            while job.load(ordering: .acquiring) == seen {
                spins += 1
                if spins < Self.idleSpins { continue }
                // Sleep; a poster that sees `sleeping` signals (a spare signal only costs a
                // spurious wake-up, which re-checks `job`).
                sleeping.store(true, ordering: .sequentiallyConsistent)
                if job.load(ordering: .sequentiallyConsistent) == seen { wake.wait() }
                sleeping.store(false, ordering: .sequentiallyConsistent)
                spins = 0
            }
            seen = job.load(ordering: .acquiring)
            if seen < 0 { return }
            if let laneJob {
                laneJob.run(buffer: laneJob.track.workerBuffer)
            } else if let task {
                task.runOnWorker()
            }
            finished.store(seen, ordering: .releasing)
        }
    }

    private func post() {
        posted += 1
        job.store(posted, ordering: .sequentiallyConsistent)
        if sleeping.load(ordering: .sequentiallyConsistent) { wake.signal() }
    }

    /// Wakes a sleeping worker ahead of a split (no job: it wakes, finds none and spins), so
    /// it is spinning by the time the job is posted.
    func prepare() {
        if sleeping.load(ordering: .sequentiallyConsistent) { wake.signal() }
    }

    /// Starts `job` on the worker (in the track's worker buffer); `wait()` before touching
    /// its output again.
    func start(_ job: LaneJob) {
        wait()   // the previous job is done: the fields are ours again
        laneJob = job
        post()
    }

    /// Starts the worker on another part's share of a frame (the render snapshot's: a full
    /// pass's chunks of items, taken as its walk makes them, or an update's half of the
    /// leaves); `wait()` before reading what it wrote.
    func start(task: any WorkerTask) {
        wait()
        self.task = task
        post()
    }

    /// Waits for the job posted last (spinning: the worker is busy on the other core).
    func wait() {
        while finished.load(ordering: .acquiring) != posted {}
        laneJob = nil
        task = nil
    }

    /// Ends the thread (the engine is going away).
    func stop() {
        wait()
        job.store(-1, ordering: .sequentiallyConsistent)
        wake.signal()
    }
}

/// One piece of a lane track's evaluation, handed whole to whichever thread runs it: the
/// track's blocks to evaluate, the timing columns it reads and the property columns it
/// writes. Plain inputs and output spans; the runner brings its own scratch buffer.
struct LaneJob {
    let track: LaneTrack
    var blocks: Range<Int>
    let progress: ColumnSpan<Double>
    let phase: ColumnSpan<UInt8>
    let iteration: ColumnSpan<Double>
    let presentation: ColumnSpan<Double>
    let model: ColumnSpan<Double>

    /// Evaluates the job's blocks with `buffer` as scratch (one per thread).
    @inline(__always)
    func run(buffer: UnsafeMutableRawPointer) {
        track.evaluateBlocks(blocks, buffer: buffer, progress: progress.base, phase: phase.base,
                             iteration: iteration.base, presentation: presentation.base, model: model.base)
    }
}

/// Work another part hands the render worker for a frame (the render snapshot's items): the
/// worker runs it on its thread, and knows nothing else of the part.
protocol WorkerTask: AnyObject {
    /// The worker thread's share; the poster waits (`RenderWorker.wait()`) before reading it.
    func runOnWorker()
}
