#!/usr/bin/env bash
# Build the standalone app with PyInstaller (after `bash build/setup.sh build`).
#   bash build/build.sh             onedir:  dist/kmetric-gui/kmetric-gui, dist/kmetric-gui/kmetric
#   bash build/build.sh --onefile   onefile: dist/onefile/kmetric-gui, dist/onefile/kmetric
set -euo pipefail
cd "$(dirname "$0")/.."
dist=dist
[ "${1:-}" = "--onefile" ] && dist=dist/onefile
# Work files in build/work (git-ignored): PyInstaller's default ./build is our sources.
.venv/bin/pyinstaller --noconfirm --log-level WARN --workpath build/work --distpath "$dist" \
    build/kmetric_gui.spec -- "$@"
echo "built into $dist/"
