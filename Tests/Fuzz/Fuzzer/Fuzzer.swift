import Foundation
import IntakeFuzzing
import NotificationEvents
import Responder

/// The program's entry: SwiftPM points `main` at `<module>_main`, so this hands the command line to libFuzzer's
/// driver rather than relying on libFuzzer's own `main`.
@_cdecl("intake_fuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// libFuzzer's entry point (scripts/fuzz builds this with `-sanitize=fuzzer`): one delivery per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    IntakeExercise.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// Before the first input: when `RESPONDER_FUZZ_SEEDS` names an empty folder, fills it with one input per line of
/// the fixtures under `RESPONDER_FUZZ_FIXTURES`, and one more in binary content mode per event, so the fuzzer
/// starts from recorded sessions in both modes.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let environment = ProcessInfo.processInfo.environment
    guard let seeds = environment["RESPONDER_FUZZ_SEEDS"], let fixtures = environment["RESPONDER_FUZZ_FIXTURES"],
        (try? FileManager.default.contentsOfDirectory(atPath: seeds))?.isEmpty == true,
        let files = FileManager.default.enumerator(atPath: fixtures)
    else { return 0 }
    var count = 0
    for case let file as String in files where file.hasSuffix(".jsonl") {
        let text = (try? String(contentsOfFile: fixtures + "/" + file, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            guard let fixture = try? EventCodec.decodeFixtureLine(Array(line.utf8)) else { continue }
            count += 1
            let input = IntakeInput.bytes(fixture)
            _ = FileManager.default.createFile(atPath: "\(seeds)/fixture-\(count)", contents: Data(input))
            if let binary = IntakeInput.binaryModeBytes(fixture) {
                _ = FileManager.default.createFile(atPath: "\(seeds)/fixture-\(count)-binary", contents: Data(binary))
            }
        }
    }
    return 0
}
