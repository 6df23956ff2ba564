/* A stand-in for bcryptprimitives.dll, which Wine 8.0 (Debian 12) lacks and Rust's standard
 * library imports for ProcessPrng (Rust 1.78+). It forwards to RtlGenRandom
 * (advapi32!SystemFunction036), which Wine has. Built with MinGW-w64 by scripts/wine-test.sh into
 * the test's Wine prefix only; never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
