#!/usr/bin/env bash
# The README's pictures of the app (docs/app_METRIC.png for the demos below), drawn
# by the app itself on its demo data: offscreen, 1280x720, default settings. .ci/run calls
# it, so the pictures follow the app; commit them when they change.
#   bash build/screenshots.sh [FOLDER]      (default docs/; after `bash build/setup.sh`)
# KMETRIC_GUI=... picks the command (default .venv/bin/kmetric-gui; a bundle's works too).
set -euo pipefail
cd "$(dirname "$0")/.."
gui="${KMETRIC_GUI:-.venv/bin/kmetric-gui}"
out="${1:-docs}"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for metric in qwk lwlrap fbeta auc rmse accuracy spearman map_iou; do
  # A settings file of its own: the user's saved window layout never shows.
  QT_QPA_PLATFORM=offscreen KMETRIC_SETTINGS="$tmp/settings.ini" \
    "$gui" --demo "$metric" --size 1280x720 --screenshot "$tmp/app_$metric.png" 2>"$tmp/err" \
    || { cat "$tmp/err" >&2; exit 1; }
  mv "$tmp/app_$metric.png" "$out/app_$metric.png"
done
echo "screenshots: $out/app_{qwk,lwlrap,fbeta,auc,rmse,accuracy,spearman,map_iou}.png"
