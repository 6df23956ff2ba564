#!/usr/bin/env bash
# The Windows build runs: cross-builds the demo for x86_64-pc-windows-gnu (MinGW-w64), runs it
# under Wine on Xvfb with glow for a few seconds, prints what each Windows probe answered, and
# fails unless the HUD sampled frames and the process exited cleanly (a panic exits non-zero).
#
# Needs: rustup target x86_64-pc-windows-gnu, Debian's mingw-w64, wine64, xvfb and xauth.
# Wine 8.0 (Debian 12) lacks bcryptprimitives.dll, which Rust's std imports: a stand-in
# (scripts/wine/bcryptprimitives.c) is built into the test's own Wine prefix.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
wine64="$(command -v wine64 || echo /usr/lib/wine/wine64)"
[ -x "$wine64" ] || { echo "wine64 is missing: apt-get install wine64" >&2; exit 1; }
cargo build -p fps_monitor --target x86_64-pc-windows-gnu --locked
exe=target/x86_64-pc-windows-gnu/debug/fps_monitor.exe
work="$(mktemp -d)"
export WINEPREFIX="$work/prefix" WINEDEBUG=-all
# A first start makes the prefix; its complaints about 32-bit parts do not matter here.
xvfb-run -a "$wine64" wineboot --init >/dev/null 2>&1 || true
x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
  scripts/wine/bcryptprimitives.c -ladvapi32
if ! xvfb-run -a -s "-screen 0 1280x720x24" "$wine64" "$exe" --seconds 6 --backend glow \
  --size 640x400 >"$work/out.txt" 2>"$work/err.txt"; then
  echo "the Windows build failed under Wine:" >&2
  tail -n 40 "$work/err.txt" >&2
  exit 1
fi
python3 - "$work/out.txt" <<'PY'
import json, sys
snapshot = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
probes = snapshot["probes"]
print("Windows probes under Wine:")
print(f"  refresh rate (MonitorFromWindow, QueryDisplayConfig): {probes['refresh_rate']}")
print(f"  CPU time (GetProcessTimes): {probes['cpu_time_s']} s")
print(f"  memory (GetProcessMemoryInfo): {probes['memory']}")
print(f"  GPU use (PDH GPU Engine counters): {probes['gpu_use']}")
print(f"HUD: {snapshot['samples']} samples, FPS {snapshot['fps']:.1f}, FRAME {snapshot['frame_ms']:.3f} ms, "
      f"CPU {snapshot['cpu_percent']}, MEM {snapshot['memory_bytes']}, refresh {snapshot['refresh_hz']}")
assert snapshot["samples"] > 0, "no frames sampled"
assert snapshot["fps"] and snapshot["fps"] > 0, "no FPS"
PY
