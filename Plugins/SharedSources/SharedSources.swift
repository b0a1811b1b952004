import Foundation
import PackagePlugin

/// Compiles the Swift files of shared folders into this target: the reference engine's
/// targets run the conformance suites, workloads and script runner unchanged (the same
/// source, built against StrataReference). Each line of the target's `shared-sources` file
/// names a folder by its path in the package; every `.swift` file directly in it is copied
/// into this build's work directory and compiled as one of the target's own sources (a copy
/// per build, never a second file in the repository). A file added to the folder is shared
/// at the next build.
@main
struct SharedSources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let list = target.directoryURL.appendingPathComponent("shared-sources")
        let text = try String(contentsOf: list, encoding: .utf8)
        let paths = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var commands: [Command] = []
        for path in paths {
            let folder = context.package.directoryURL.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw SharedSourcesError("\(list.path): \(path) is not a folder of the package")
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".swift") }.sorted()
            guard !files.isEmpty else { throw SharedSourcesError("\(list.path): \(path) holds no .swift file") }
            for name in files {
                let source = folder.appendingPathComponent(name)
                let copy = context.pluginWorkDirectoryURL.appendingPathComponent(name)
                commands.append(.buildCommand(displayName: "Sharing \(path)/\(name) with \(target.name)",
                                              executable: URL(fileURLWithPath: "/bin/cp"),
                                              arguments: [source.path, copy.path],
                                              inputFiles: [source], outputFiles: [copy]))
            }
        }
        return commands
    }
}

struct SharedSourcesError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
