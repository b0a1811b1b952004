import Foundation
import PackagePlugin

/// Compiles Swift files of another target into this one: the reference engine's targets run
/// the fast engine's workloads and script runner unchanged (the same source, built against
/// StrataReference). Each line of the target's `shared-sources` file names a file by its path
/// in the package; the file is copied into this build's work directory and compiled as one of
/// the target's own sources (a copy per build, never a second file in the repository).
@main
struct SharedSources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let list = target.directoryURL.appendingPathComponent("shared-sources")
        let text = try String(contentsOf: list, encoding: .utf8)
        let paths = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        return try paths.map { path in
            let source = context.package.directoryURL.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: source.path) else {
                throw SharedSourcesError("\(list.path): \(path) does not exist")
            }
            let copy = context.pluginWorkDirectoryURL.appendingPathComponent(source.lastPathComponent)
            return .buildCommand(displayName: "Sharing \(path) with \(target.name)",
                                 executable: URL(fileURLWithPath: "/bin/cp"),
                                 arguments: [source.path, copy.path],
                                 inputFiles: [source], outputFiles: [copy])
        }
    }
}

struct SharedSourcesError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
