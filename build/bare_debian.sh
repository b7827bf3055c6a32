#!/usr/bin/env bash
# The README's two commands on a bare Debian 12, as a new user runs them: a
# `debootstrap --variant=minbase bookworm` chroot with only python3 added, this
# checkout copied in (tracked and untracked files, not the ignored ones), then
#   1. `bash build/setup.sh` stopped twice (killed right after .venv appears, Ctrl-C
#      while pip installs), then run to the end, and the demo rendered offscreen:
#      `bash build/setup.sh && .venv/bin/kmetric-gui --demo --screenshot x.png`
#   2. `bash build/setup.sh test && .venv/bin/python -m pytest -q <a short subset>`
#      (--full: the whole suite, as the README says); the subset includes
#      tests/test_docs_commands.py: every command block of the README and docs/ through
#      the installed scripts of that fresh .venv
# Run as root on a Debian/Ubuntu host with network (Debian mirror and PyPI); before
# every release. The bare system is cached in build/bare/base (git-ignored); every run
# works on a fresh copy of it, so nothing of an earlier run is reused.
#   bash build/bare_debian.sh [--full] [--keep] [--mirror URL] [--ca FILE]
#   bash build/bare_debian.sh --bundle dist/kmetric-gui     the built bundle instead: what it
#      says on the bare system (kmetric score works; the app names the missing packages),
#      then with the README's three packages installed (screenshot and report with plots)
# --ca FILE (default: $PIP_CERT): a CA bundle pip trusts in the chroot, for a network that
# intercepts TLS (a bare Debian's pip trusts only its own certifi bundle).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
full=0; keep=0; bundle=""; mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"; ca="${PIP_CERT:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --full) full=1 ;;
    --keep) keep=1 ;;
    --mirror) mirror="$2"; shift ;;
    --ca) ca="$2"; shift ;;
    --bundle) bundle="$(cd "$2" && pwd)"; shift ;;
    *) echo "bare_debian.sh: unknown option $1 (--full, --keep, --mirror URL, --ca FILE, --bundle DIR)" >&2
       exit 2 ;;
  esac
  shift
done
[ "$(id -u)" -eq 0 ] || { echo "bare_debian.sh: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "bare_debian.sh: apt-get install debootstrap" >&2; exit 2; }

cache="$repo/build/bare"
base="$cache/base"
root="$cache/run"
mkdir -p "$cache"
t0=$SECONDS
stamp() { echo "[bare $(( SECONDS - t0 ))s] $*"; }

if [ ! -f "$base/.kmetric-base-ok" ]; then
  stamp "debootstrap --variant=minbase bookworm (once; cached in $base)"
  rm -rf "$base"
  debootstrap --variant=minbase bookworm "$base" "$mirror" >"$cache/debootstrap.log" 2>&1 \
    || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
  cp /etc/resolv.conf "$base/etc/resolv.conf"
  chroot "$base" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 >/dev/null && apt-get clean'
  touch "$base/.kmetric-base-ok"
  stamp "base ready: $(du -sh "$base" | cut -f1)"
fi

mounted=()
# Never delete through a mount (the chroot's /dev is the host's): unmount, check, then
# remove without crossing file systems.
remove_root() {
  if grep -q " $root/" /proc/mounts; then
    echo "bare_debian.sh: still mounted under $root; not removing it" >&2; return 1
  fi
  rm -rf --one-file-system "$root"
}
cleanup() {
  local i
  for (( i=${#mounted[@]}-1; i>=0; i-- )); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  [ "$keep" = 1 ] || remove_root
}
trap cleanup EXIT
remove_root
cp -a "$base" "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
envs=(HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
if [ -n "$ca" ]; then
  mkdir -p "$root/etc/ssl" && cp "$ca" "$root/etc/ssl/pip-ca.crt"
  envs+=(PIP_CERT=/etc/ssl/pip-ca.crt)
fi
for m in proc sys dev dev/pts; do
  mkdir -p "$root/$m"
  case "$m" in
    proc) mount -t proc proc "$root/proc" ;;
    sys) mount -t sysfs sys "$root/sys" ;;
    *) mount --bind "/$m" "$root/$m" ;;
  esac
  mounted+=("$root/$m")
done
mkdir -p "$root/root/kmetric_gui"
git -C "$repo" ls-files -z --cached --others --exclude-standard \
  | (cd "$repo" && tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$root/root/kmetric_gui"
stamp "fresh copy of the base with the checkout in /root/kmetric_gui"

# A clean environment: nothing of this machine's pip or Python set-up leaks in.
in_root() {
  chroot "$root" /usr/bin/env -i "${envs[@]}" bash -c "cd /root/kmetric_gui && $1"
}

if [ -n "$bundle" ]; then
  cp -a "$bundle" "$root/opt/kmetric-gui"
  demo=/root/kmetric_gui/resources/demo
  in_root "/opt/kmetric-gui/kmetric score $demo/qwk_solution.csv $demo/qwk_submission.csv --json >/dev/null"
  stamp "bundle: kmetric score runs on the bare system"
  set +e
  in_root "QT_QPA_PLATFORM=offscreen /opt/kmetric-gui/kmetric-gui --demo --screenshot /tmp/x.png" 2>"$cache/gui.err"
  code=$?
  in_root "/opt/kmetric-gui/kmetric report $demo/qwk_solution.csv $demo/qwk_submission.csv --out /tmp/rep" \
    >/dev/null 2>"$cache/report.err"
  rcode=$?
  set -e
  stamp "bundle without Qt's system libraries: kmetric-gui exit $code: $(cat "$cache/gui.err")"
  stamp "bundle without Qt's system libraries: kmetric report exit $rcode: $(cat "$cache/report.err")"
  [ "$code" = 2 ] && grep -q "apt-get install --no-install-recommends libgl1" "$cache/gui.err" \
    || { echo "bare_debian.sh: the app did not name the packages" >&2; exit 1; }
  [ "$rcode" = 3 ] || { echo "bare_debian.sh: kmetric report without Qt exited $rcode, not 3" >&2; exit 1; }
  in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    libgl1 libegl1 fontconfig-config >/dev/null"
  in_root "QT_QPA_PLATFORM=offscreen /opt/kmetric-gui/kmetric-gui --demo lwlrap --screenshot /tmp/x.png"
  in_root "rm -rf /tmp/rep && /opt/kmetric-gui/kmetric report $demo/qwk_solution.csv $demo/qwk_submission.csv \
    --out /tmp/rep && ls /tmp/rep/plots/*.png >/dev/null && test -s /tmp/rep/report.pdf"
  cp "$root/tmp/x.png" "$cache/bundle_demo.png"
  stamp "bundle with libgl1 libegl1 fontconfig-config: screenshot ($cache/bundle_demo.png) and report with plots and PDF"
  exit 0
fi

# Interruption 1: killed (SIGKILL, as a closed terminal or a power cut) once .venv/bin/python exists.
# Interruption 2: Ctrl-C (SIGINT to the process group) once pip has begun unpacking numpy.
interrupt_when() {  # $1 = a path in the chroot, $2 = signal
  setsid chroot "$root" /usr/bin/env -i "${envs[@]}" bash -c "cd /root/kmetric_gui && exec bash build/setup.sh" >"$cache/interrupted.log" 2>&1 &
  local pid=$! waited=0
  while kill -0 "$pid" 2>/dev/null && ! compgen -G "$root/$1" >/dev/null; do
    sleep 0.05; waited=$((waited + 1))
    [ "$waited" -lt 12000 ] || break
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill "-$2" -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    stamp "first set-up stopped with SIG$2 once $1 existed"
  else
    wait "$pid" 2>/dev/null || true
    stamp "first set-up ended before $1 appeared (see $cache/interrupted.log)"
  fi
}
interrupt_when "root/kmetric_gui/.venv/bin/python" KILL
interrupt_when "root/kmetric_gui/.venv/lib/python3*/site-packages/numpy" INT

s=$SECONDS
in_root 'bash build/setup.sh && QT_QPA_PLATFORM=offscreen .venv/bin/kmetric-gui --demo --screenshot x.png'
size=$(stat -c %s "$root/root/kmetric_gui/x.png")
[ "$size" -gt 20000 ] || { echo "bare_debian.sh: x.png is only $size bytes" >&2; exit 1; }
cp "$root/root/kmetric_gui/x.png" "$cache/demo.png"
stamp "command 1 passed in $((SECONDS - s))s after the interruptions (demo: $cache/demo.png, $size bytes)"

if [ "$full" = 1 ]; then
  tests=""
else
  # Short: the metric cores against their references, the CLI end to end, the app's
  # demo, the wheel's install, the CPU choice, and every command of the README and docs/
  # through the scripts of the .venv that command 1 made.
  tests="tests/core/test_kappa.py tests/cli/test_cli.py tests/gui/test_kappa_view.py tests/test_install.py tests/test_cpu.py"
  tests="$tests tests/test_docs_commands.py"
fi
s=$SECONDS
in_root "bash build/setup.sh test && .venv/bin/python -m pytest -q -p no:cacheprovider $tests"
stamp "command 2 passed in $((SECONDS - s))s (${tests:-whole suite})"
stamp "all passed"
