#!/usr/bin/env bash
# Build the standalone app with PyInstaller (after `bash build/setup.sh build`).
#   bash build/build.sh             onedir:  dist/kmetric-gui/kmetric-gui, dist/kmetric-gui/kmetric
#                                   (macOS also dist/kmetric-gui.app)
#   bash build/build.sh --onefile   onefile: dist/onefile/kmetric-gui, dist/onefile/kmetric
#   bash build/build.sh --pack      also pack dist/ as kmetric-gui-<version>-<os>.tar.gz (.zip on
#                                   Windows): archives keep the execute bits and the symbolic link
# PYTHON=... picks the interpreter (default .venv/bin/python, or .venv/Scripts/python.exe).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  PY=.venv/bin/python
  [ -x "$PY" ] || PY=.venv/Scripts/python.exe
fi
dist=dist; spec_args=(); pack=0
for a in "$@"; do
  case "$a" in
    --onefile) dist=dist/onefile; spec_args+=(--onefile) ;;
    --pack) pack=1 ;;
    *) echo "build.sh: unknown option $a (--onefile, --pack)" >&2; exit 2 ;;
  esac
done
# The checkout being built is the one analysed (not another copy installed in the venv).
sep=":"; case "$(uname -s)" in MINGW*|MSYS*|CYGWIN*) sep=";" ;; esac
export PYTHONPATH="$PWD${PYTHONPATH:+$sep$PYTHONPATH}"
# Work files in build/work (git-ignored): PyInstaller's default ./build is our sources.
"$PY" -m PyInstaller --noconfirm --log-level WARN --workpath build/work --distpath "$dist" \
    build/kmetric_gui.spec -- ${spec_args[@]+"${spec_args[@]}"}
echo "built into $dist/"
if [ "$pack" = 1 ]; then
  "$PY" build/pack.py "$dist"
fi
