#!/usr/bin/env bash
# The release: what the workflow's bundle jobs run on a v* tag (.github/workflows/ci.yml),
# on Linux, Windows and macOS alike, and what runs here to try it. Both bundle kinds, each
# packed, unpacked again as a user would and smoke-tested there (tests/test_bundle.py: the
# docs' commands, metric files, the app's demo, the licence texts), then the upload list.
#   bash build/release.sh                     after `bash build/setup.sh build` (or pip install -e ".[test,build]")
#   bash build/release.sh --max-glibc 2.35    Linux: also fail if the bundle needs a newer glibc
# PYTHON=... picks the interpreter (default .venv/bin/python, or .venv/Scripts/python.exe).
# Starts from an empty dist/: what is left there at the end is what gets uploaded.
# Needs bash and that Python only (no tar, unzip or strip of the system's).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  PY=.venv/bin/python
  [ -x "$PY" ] || PY=.venv/Scripts/python.exe
fi
export PYTHON="$PY"
max_glibc=""
while [ $# -gt 0 ]; do
  case "$1" in
    --max-glibc) max_glibc="$2"; shift ;;
    *) echo "release.sh: unknown option $1 (--max-glibc VERSION)" >&2; exit 2 ;;
  esac
  shift
done
linux=0; [ "$(uname -s)" = Linux ] && linux=1
t0=$SECONDS
stamp() { echo "[release $(( SECONDS - t0 ))s] $*"; }

rm -rf dist
smoke() {   # $1 = archive, $2 = kind: unpack it, then the smoke test on what came out
  local top bundle
  top="$("$PY" build/pack.py --unpack "$1" "dist/check/$2")"
  bundle="$top"; [ "$2" = onedir ] && bundle="$top/kmetric-gui"
  stamp "smoke test of $2 (unpacked from $(basename "$1"))"
  KMETRIC_BUNDLE="$bundle" "$PY" -m pytest -q -p no:cacheprovider tests/test_bundle.py
}
{ read -r onedir_archive; read -r onefile_archive; } < <("$PY" build/pack.py --expected | tr -d '\r')

stamp "onedir"
bash build/build.sh --pack
if [ "$linux" = 1 ]; then
  "$PY" build/glibc_needed.py dist/kmetric-gui ${max_glibc:+--max "$max_glibc"}
fi
smoke "dist/$onedir_archive" onedir

stamp "onefile"
bash build/build.sh --onefile --pack
smoke "dist/$onefile_archive" onefile

# The upload list (the workflow uploads dist/*.tar.gz and dist/*.zip): exactly these two.
rm -rf dist/check
stamp "ready to upload:"
"$PY" build/pack.py --check-upload dist
