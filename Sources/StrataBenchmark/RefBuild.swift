import ArgumentParser
import Foundation

/// Building another commit of the package, for the commands that compare two builds (`ab`,
/// `profile --base`), and the processes they run.
enum RefBuild {
    /// BASE_REF checked out in a worktree of its own and built with its own scratch path.
    static func buildBase(commit: String, top: String, packagePath: String, product: String, tool: String) throws -> String {
        let root = URL(fileURLWithPath: top).appendingPathComponent(".build-ab")
        let source = root.appendingPathComponent("base-src")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        _ = git(["worktree", "remove", "--force", source.path], in: top)
        try? FileManager.default.removeItem(at: source)
        _ = git(["worktree", "prune"], in: top)
        guard git(["worktree", "add", "--detach", source.path, commit], in: top) != nil else {
            printError("\(tool): could not check out \(commit) in \(source.path)")
            throw ExitCode(3)
        }
        // Projects that read files beside the repository (../shared) find them from the worktree too.
        let sibling = URL(fileURLWithPath: top).deletingLastPathComponent()
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: sibling.path)) ?? [] where entry == "shared" {
            try? FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(entry).path,
                                                        withDestinationPath: sibling.appendingPathComponent(entry).path)
        }
        let relative = String(packagePath.dropFirst(top.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let basePackage = relative.isEmpty ? source : source.appendingPathComponent(relative)
        let scratch = root.appendingPathComponent("base")
        progress("\(tool): building \(product) at \(commit.prefix(10)) (\(scratch.path))")
        let status = try runStreaming("swift", ["build", "-c", "release", "--product", product, "--scratch-path", scratch.path],
                                      in: basePackage.path)
        guard status == 0 else {
            printError("\(tool): the base commit \(commit.prefix(10)) does not build \(product) (swift build exited \(status))")
            throw ExitCode(3)
        }
        return scratch.appendingPathComponent("release").appendingPathComponent(product).path
    }

    /// The repository holding `packagePath` and the commit `ref` names in it; either missing
    /// is a usage error (exit 64), said with `tool`'s prefix.
    static func resolve(_ ref: String, packagePath: String, tool: String) throws -> (top: String, commit: String) {
        guard let top = git(["rev-parse", "--show-toplevel"], in: packagePath) else {
            printError("\(tool): \(packagePath) is not inside a git repository (\(tool) builds \(ref) from it)")
            throw ExitCode(64)
        }
        guard let commit = git(["rev-parse", "--verify", "--quiet", "\(ref)^{commit}"], in: packagePath) else {
            printError("\(tool): unknown commit '\(ref)'")
            throw ExitCode(64)
        }
        return (top, commit)
    }

    /// `git ARGS` in `dir`: trimmed output, or nil when git fails.
    static func git(_ arguments: [String], in dir: String) -> String? {
        guard let (status, output) = try? capture("/usr/bin/env", ["git"] + arguments, in: dir), status == 0 else { return nil }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `tool ARGS` in `dir` with its output on standard error; its exit status.
    static func runStreaming(_ tool: String, _ arguments: [String], in dir: String) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + arguments
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        p.standardOutput = FileHandle.standardError
        p.standardError = FileHandle.standardError
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    static func runCapturing(_ tool: String, _ arguments: [String], in dir: String) throws -> String {
        let (status, output) = try capture("/usr/bin/env", [tool] + arguments, in: dir)
        guard status == 0 else { throw ValidationError("\(tool) \(arguments.joined(separator: " ")) failed: \(output)") }
        return output
    }

    static func capture(_ executable: String, _ arguments: [String], in dir: String) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = Pipe()
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
