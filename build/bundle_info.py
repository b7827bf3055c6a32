"""What the bundle says about itself on each platform (used by build/kmetric_gui.spec, and
tested on any platform by tests/test_bundle.py).

The macOS minimum is what the bundled Qt needs: Qt 6.11 supports macOS 13 and newer,
and its wheels are tagged so (macosx_13_0); a lower LSMinimumSystemVersion would let
the app be opened where Qt then fails to load.
"""
import re

MACOS_MINIMUM = "13.0"


def version_numbers(version):
    """Four numbers for a Windows version resource: "0.2.0" -> (0, 2, 0, 0)."""
    return tuple(int(x) for x in (re.findall(r"\d+", version) + ["0"] * 4)[:4])


def info_plist(version):
    """The macOS app's Info.plist entries."""
    return {"CFBundleName": "kmetric-gui", "CFBundleDisplayName": "kmetric",
            "CFBundleShortVersionString": version, "CFBundleVersion": version,
            "NSHighResolutionCapable": True, "LSBackgroundOnly": False,
            "LSMinimumSystemVersion": MACOS_MINIMUM,
            "NSHumanReadableCopyright": "MIT License"}


def macos_floor(tags):
    """The newest macOS a set of wheel tags needs: ["cp39-abi3-macosx_13_0_universal2"] ->
    (13, 0); None when no tag names macOS."""
    found = [(int(m.group(1)), int(m.group(2)))
             for t in tags for m in [re.search(r"macosx_(\d+)_(\d+)_", t)] if m]
    return max(found) if found else None


def wheel_tags(dist):
    """The tags an installed distribution's wheel was built for (its WHEEL file)."""
    text = dist.read_text("WHEEL") or ""
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Tag:")]
