#!/usr/bin/env bash
# Starts a headless Xorg with the dummy video driver on display :N (default :57), whose RandR modes
# have real timings (Xvfb's do not), and prints its PID. Stop it with `kill PID`.
#
#   scripts/xorg-dummy.sh [N]            # e.g. then: DISPLAY=:57 xrandr
#
# Needs the Debian packages xserver-xorg-core and xserver-xorg-video-dummy, and root (or an Xorg
# that may run without a VT: -novtswitch -sharevts is what lets it start in a container).
set -euo pipefail
display_number="${1:-57}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log_file="${TMPDIR:-/tmp}/xorg-dummy-${display_number}.log"
Xorg ":${display_number}" -noreset -nolisten tcp -config "${here}/xorg-dummy.conf" \
    -novtswitch -sharevts -logfile "${log_file}" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
    if [ -S "/tmp/.X11-unix/X${display_number}" ]; then
        echo "${pid}"
        exit 0
    fi
    if ! kill -0 "${pid}" 2>/dev/null; then
        echo "Xorg :${display_number} exited; see ${log_file}" >&2
        exit 1
    fi
    sleep 0.1
done
echo "Xorg :${display_number} did not open its socket in 10 s; see ${log_file}" >&2
kill "${pid}"
exit 1
