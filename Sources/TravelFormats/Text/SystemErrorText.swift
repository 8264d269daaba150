// The C library's error table is the one platform import of TravelFormats (TravelCore's is libm,
// see Math.swift): a lookup, no I/O. Every edge that reports a failed system call words it through here.
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The C library's sentence for a system error number: "No such file or directory" for
/// `ENOENT`. Without an argument, the calling thread's `errno`, read before anything else can
/// change it; pass the number where a call returns one instead (`pthread_create`, a socket's
/// `SO_ERROR`).
package func systemErrorText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
