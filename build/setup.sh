#!/usr/bin/env bash
# Set up kmetric_gui on a fresh Debian machine: Qt's system libraries, a
# virtual environment in .venv, the package in editable mode.
#   bash build/setup.sh          app only
#   bash build/setup.sh test     app + test tools
#   bash build/setup.sh build    app + test tools + PyInstaller
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-app}"

# Libraries Qt loads at run time on a bare Debian 12 (offscreen and xcb).
sys_pkgs=(libgl1 libegl1 libx11-6 libx11-xcb1 libfontconfig1 libfreetype6
          libdbus-1-3 libglib2.0-0 libxkbcommon0 libxkbcommon-x11-0
          fontconfig-config fonts-dejavu-core
          libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0
          libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-randr0
          libxcb-xkb1)
# PyInstaller reads shared-library dependencies with objdump/ldd (binutils).
[ "$what" = "build" ] && sys_pkgs+=(binutils)
if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${sys_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing system libraries: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
case "$what" in
  app)   extras="" ;;
  test)  extras="[test]" ;;
  build) extras="[test,build]" ;;
  *) echo "setup: unknown target '$what' (app, test or build)" >&2; exit 2 ;;
esac
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extras}"
echo "setup: ready (.venv, target $what)"
