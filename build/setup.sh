#!/usr/bin/env bash
# Set up kmetric_gui on a fresh Debian/Ubuntu machine: Qt's system libraries, a
# virtual environment in .venv, the package in editable mode.
#   bash build/setup.sh          app only
#   bash build/setup.sh test     app + test tools
#   bash build/setup.sh build    app + test tools + PyInstaller
#   add `xvfb` (e.g. `bash build/setup.sh xvfb`) for xvfb-run: a real window without a display
# PYTHON=... picks the interpreter (default python3, 3.10 or newer).
# Safe to run again, also after an interrupted run: a half-made .venv is made anew.
set -euo pipefail
cd "$(dirname "$0")/.."
what=app; xvfb=0
for a in "$@"; do
  case "$a" in
    app|test|build) what="$a" ;;
    xvfb) xvfb=1 ;;
    *) echo "setup: unknown target '$a' (app, test or build; and xvfb)" >&2; exit 2 ;;
  esac
done

PY="${PYTHON:-python3}"
if ! command -v "$PY" >/dev/null 2>&1; then
  echo "setup: no '$PY' found; install Python 3.10 or newer (apt-get install python3)" >&2; exit 2
fi
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  echo "setup: $("$PY" -V 2>&1) is too old; Python 3.10 or newer is needed (PYTHON=... picks one)" >&2; exit 2
fi
pyver="$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
# Debian's own interpreter (owned by a package) lacks venv/pip and the shared libpython
# unless their packages are there; another build (pyenv, uv, conda) brings its own.
pyexe="$("$PY" -c 'import os, sys; print(os.path.realpath(sys.executable))')"
debian_py=0
command -v dpkg-query >/dev/null 2>&1 && dpkg-query -S "$pyexe" >/dev/null 2>&1 && debian_py=1

# Libraries Qt loads at run time on a bare Debian 12 (offscreen and xcb).
sys_pkgs=(libgl1 libegl1 libx11-6 libx11-xcb1 libfontconfig1 libfreetype6
          libdbus-1-3 libglib2.0-0 libxkbcommon0 libxkbcommon-x11-0
          fontconfig-config fonts-dejavu-core
          libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0
          libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-randr0
          libxcb-xkb1
          bubblewrap)     # the metric-file sandbox (docs/metric-files.md)
if [ "$debian_py" = 1 ] && ! "$PY" -c 'import ensurepip, venv' >/dev/null 2>&1; then
  sys_pkgs+=("python${pyver}-venv")
fi
if [ "$what" = "build" ]; then
  # PyInstaller reads shared-library dependencies with objdump/ldd (binutils) and
  # collects the interpreter's libpython (Debian ships it in its own package).
  sys_pkgs+=(binutils)
  [ "$debian_py" = 1 ] && sys_pkgs+=("libpython${pyver}")
fi
# xvfb-run needs xauth, which xvfb only recommends.
[ "$xvfb" = 1 ] && sys_pkgs+=(xvfb xauth)

if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${sys_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing system packages: ${missing[*]}"
    SUDO=()
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
      else
        echo "setup: not root and no sudo; as root run: apt-get install --no-install-recommends ${missing[*]}" >&2
        exit 2
      fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    # An apt-get stopped half-way leaves dpkg to be configured before anything installs.
    ${SUDO[@]+"${SUDO[@]}"} dpkg --configure -a
    ${SUDO[@]+"${SUDO[@]}"} apt-get update -qq
    ${SUDO[@]+"${SUDO[@]}"} apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
elif [ "$(uname -s)" = Linux ]; then
  echo "setup: not a Debian-like system; install Qt's libraries yourself (libGL, libEGL, fontconfig," \
       "a font, libxkbcommon, the xcb libraries)" >&2
fi

# A .venv whose pip does not run (a run stopped while making it, a venv made without
# ensurepip, its Python removed) is made anew instead of failing on every later run.
if [ -e .venv ] && ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
  echo "setup: .venv is incomplete or broken; making it anew"
  rm -rf .venv
fi
if [ ! -e .venv ] && ! "$PY" -m venv .venv; then
  rm -rf .venv
  echo "setup: '$PY -m venv' failed; on Debian/Ubuntu install python${pyver}-venv" >&2
  exit 2
fi
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
case "$what" in
  app)   extras="[metricfile]" ;;
  test)  extras="[test,metricfile]" ;;
  build) extras="[test,build,metricfile]" ;;
esac
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extras}"
echo "setup: ready (.venv, target $what)"
