"""The command blocks of README.md and docs/*.md, and how the tests run them.

tests/test_docs_commands.py runs every block through the installed `kmetric` and
`kmetric-gui` scripts of the environment running the tests (the README's `.venv/bin`);
tests/test_bundle.py runs the same blocks through a built bundle (KMETRIC_BUNDLE).

The conventions, as the docs follow them:
- A ```bash fence is commands, one a line (a trailing backslash continues a line; `&&`
  chains steps). Other fences (```python, usage synopses, the layout) are not run.
- `<!-- docs-test: NAME=PATH ... -->` just before a fence names the files its
  placeholders stand for (TRUTH, SUBMISSION, A.csv, ...); PATH is relative to the
  repository. `<!-- docs-test: linux -->` marks a block that only means something on Linux.
- An unlabelled fence right after a bash fence is what its first command prints (a
  contiguous run of its stdout, compared line by line); `<!-- docs-test: output of
  command N -->` before it names another command of the block.
- Each block runs in a fresh folder holding a copy of the checkout's sources, with HOME
  there too, the settings and metric-file records in it, and Qt offscreen.

What is not run, by rule (each still checked as far as it can be):
- `bash build/setup.sh [...]` made the environment these tests run in (.ci/run,
  build/bare_debian.sh and a developer's checkout run it before the tests).
- `.venv/bin/python -m pytest ...` is the test suite itself.
- `bash build/build.sh [...]` takes minutes: build/release.sh (the release workflow's
  script) and .ci/run run it; the exact command must appear in one of them.
- `bash build/release.sh` is the release (both bundles, their smoke tests: 15-25 minutes);
  the workflow must run it.
- `sudo apt-get install ...` changes the system: build/bare_debian.sh --bundle installs
  the same packages on a bare Debian 12 and checks the bundle works with them.
- `.venv/bin/python bench/...` runs for minutes and needs a quiet machine (its timings
  are the point): the script must exist.
How the rest is adapted:
- `kmetric-gui` without `--screenshot` gets `--screenshot FILE` (it would wait for a user)
  and the picture must be written; `xvfb-run` gets `-a`, or is left out (Qt offscreen)
  where it is not installed.
- `python3` is the interpreter running the tests; a virtual environment a block makes sees
  that interpreter's installed packages through a .pth line, so `pip install .` downloads
  nothing but its build backend.
"""
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# What a block's folder holds: the checkout's sources as `pip install .` needs them, and
# the files the placeholders name.
COPIED = ("kmetric_gui", "resources", "docs/metrics.md", "tests/docs_data", "pyproject.toml",
          "setup.py", "MANIFEST.in", "README.md", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md")
MARKER = re.compile(r"<!--\s*docs-test:(.*?)-->", re.S)
WINDOWS = os.name == "nt"


@dataclass
class Block:
    path: Path
    line: int                     # of the opening fence, 1-based
    commands: list                # logical lines
    subs: dict = field(default_factory=dict)
    linux_only: bool = False
    outputs: dict = field(default_factory=dict)   # command number (1-based) -> shown lines

    @property
    def name(self):
        return f"{self.path.relative_to(ROOT).as_posix()}:{self.line}"


def _marker_options(text):
    subs, flags, output_of = {}, set(), None
    for body in MARKER.findall(text):
        body = body.strip()
        found = re.fullmatch(r"output of command (\d+)", body)
        if found:
            output_of = int(found.group(1))
            continue
        for word in body.split():
            if "=" in word:
                name, value = word.split("=", 1)
                subs[name] = value
            else:
                flags.add(word)
    return subs, flags, output_of


def _logical_lines(lines):
    out, pending = [], ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        line = (pending + line).strip()
        pending = ""
        if line and not line.startswith("#"):
            out.append(line)
    return out


def _split_marker(between):
    """(the marker right before a fence or "", whether any prose precedes the fence)."""
    text = "\n".join(between).strip()
    if text.endswith("-->") and "<!--" in text:
        cut = text.rindex("<!--")
        return text[cut:], bool(text[:cut].strip())
    return "", bool(text)


def parse(path):
    """The bash blocks of one Markdown file, with their markers and shown output."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, between, last, i = [], [], None, 0
    while i < len(lines):
        fence = re.match(r"^```(\S*)\s*$", lines[i])
        if not fence:
            between.append(lines[i])
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        body, lang = lines[i + 1:end], fence.group(1)
        marker, prose = _split_marker(between)
        subs, flags, output_of = _marker_options(marker)
        if lang == "bash":
            last = Block(path, i + 1, _logical_lines(body), subs, "linux" in flags)
            blocks.append(last)
        else:
            if lang == "" and last is not None and not prose:
                last.outputs[output_of or 1] = [b.rstrip() for b in body]
            last = None
        between = []
        i = end + 1
    return blocks


def all_blocks():
    return [b for path in DOCS for b in parse(path)]


# -- running ------------------------------------------------------------------------------

class NotRun(Exception):
    """A step the tests do not run (module docstring); the message says why."""


def scripts_dir():
    """Where the running interpreter's console scripts are (the README's .venv/bin)."""
    here = Path(sys.executable).parent
    if (here / ("kmetric.exe" if WINDOWS else "kmetric")).exists():
        return here
    return Path(sysconfig.get_path("scripts"))


def _exe(folder, name):
    folder = Path(folder)
    if WINDOWS and not (folder / name).exists() and (folder / (name + ".exe")).exists():
        return str(folder / (name + ".exe"))
    return str(folder / name)


class Runner:
    """Runs blocks in a fresh folder: through installed scripts, or a bundle's executables."""

    def __init__(self, work, bundle=None):
        self.skipped = False
        self.work = Path(work)
        self.bundle = Path(bundle).resolve() if bundle else None
        self.home = self.work / "home"
        self.cwd = self.work / "checkout"
        self.home.mkdir(parents=True)
        for name in COPIED:
            src, dest = ROOT / name, self.cwd / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy2(src, dest)
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        # HOME moves into the folder (nothing is written to the user's); pip keeps the
        # user's configuration (an index or mirror it needs).
        for conf in (Path.home() / ".config" / "pip" / "pip.conf", Path.home() / ".pip" / "pip.conf"):
            if conf.is_file() and "PIP_CONFIG_FILE" not in self.env:
                self.env["PIP_CONFIG_FILE"] = str(conf)
        self.env.update(HOME=str(self.home), USERPROFILE=str(self.home),
                        KMETRIC_CONFIG_DIR=str(self.work / "config"),
                        KMETRIC_SETTINGS=str(self.work / "settings.ini"),
                        QT_QPA_PLATFORM="offscreen")
        self.shots = 0

    # A step's words -> the argv to run (or NotRun).
    def program(self, word):
        name = word.replace("\\", "/").rsplit("/", 1)[-1]
        if word in (".venv/bin/python", "python3"):
            return sys.executable
        if name in ("kmetric", "kmetric-gui") and (word.startswith(".venv/bin/") or word == name):
            if self.bundle:
                return _exe(self.bundle, name)
            return _exe(scripts_dir(), name)
        if "/" in word:
            path = Path(self.expand(word))
            if not path.is_absolute():
                path = self.cwd / path
            if WINDOWS and path.parent.name == "bin" and not path.parent.exists():
                path = path.parent.parent / "Scripts" / path.name        # a venv made on Windows
            return _exe(path.parent, path.name)
        return word

    def expand(self, word, subs=None):
        subs = subs or {}
        if word in subs:
            return str(self.cwd / subs[word])
        if word == "~" or word.startswith("~/"):
            word = str(self.home) + word[1:]
        return word.replace("$PWD", str(self.cwd)).replace("$HOME", str(self.home))

    def plan(self, words, subs):
        """argv and extra checks for one step."""
        line = " ".join(words)
        if words[:2] == ["bash", "build/setup.sh"]:
            raise NotRun("made the environment these tests run in")
        if words[1:3] == ["-m", "pytest"]:
            raise NotRun("the test suite itself")
        if words[:2] == ["bash", "build/build.sh"]:
            scripts = [(ROOT / s).read_text() for s in ("build/release.sh", ".ci/run")]
            assert any(re.search(rf"^\s*{re.escape(line)}\s*$", s, re.M) for s in scripts), \
                f"`{line}` runs nowhere: build/release.sh or .ci/run should run it"
            raise NotRun("build/release.sh and .ci/run run it")
        if words[:2] == ["bash", "build/release.sh"]:
            workflow = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
            assert "bash build/release.sh" in workflow, "the release workflow does not run build/release.sh"
            raise NotRun("the release itself: the workflow runs it on a v* tag")
        if words[:3] == ["sudo", "apt-get", "install"]:
            wanted = {w for w in words[3:] if not w.startswith("-")}
            script = (ROOT / "build" / "bare_debian.sh").read_text()
            assert wanted <= set(script.split()), f"build/bare_debian.sh does not install {wanted}"
            raise NotRun("build/bare_debian.sh --bundle installs these on a bare Debian 12")
        if len(words) >= 2 and words[1].startswith("bench/"):
            assert (ROOT / words[1]).is_file(), f"{words[1]} is not there"
            raise NotRun("a benchmark: minutes, on a quiet machine")
        checks = {}
        if words[0] == "xvfb-run":
            words = words[1:]
            if shutil.which("xvfb-run"):
                checks["xvfb"] = True
        name = Path(words[0]).name
        if self.bundle and not (words[0] in ("kmetric", "kmetric-gui", "mkdir", "ln", "cp")
                                or words[0] in (".venv/bin/kmetric", ".venv/bin/kmetric-gui")):
            self.skipped = True
            raise NotRun("not a command of the bundle")
        if self.bundle and self.skipped and "--metric-python" in words:
            raise NotRun("its --metric-python is a Python an earlier step makes, which the "
                         "bundle does not run (tests/metricfile runs --metric-python)")
        argv = [self.program(words[0])] + [self.expand(w, subs) for w in words[1:]]
        if name == "kmetric-gui":
            if "--screenshot" not in argv:
                self.shots += 1
                argv += ["--screenshot", str(self.work / f"shot{self.shots}.png")]
            checks["shot"] = argv[argv.index("--screenshot") + 1]
        if words[1:3] == ["-m", "venv"]:
            checks["venv"] = argv[3]
        if checks.get("xvfb"):
            argv = ["xvfb-run", "-a"] + argv
        return argv, checks

    def run_step(self, argv, checks):
        env = dict(self.env)
        if checks.get("xvfb"):
            env.pop("QT_QPA_PLATFORM")
        if not Path(argv[0]).is_absolute() and shutil.which(argv[0]) is None:
            raise NotRun(f"{argv[0]} is not installed here")
        r = subprocess.run(argv, cwd=self.cwd, env=env, capture_output=True, text=True,
                           timeout=600, stdin=subprocess.DEVNULL)
        if "venv" in checks and r.returncode == 0:
            _share_packages(Path(checks["venv"]))
        return r

    def run(self, block):
        """Run a block: a list of (command, status) for the record; asserts on failure."""
        record = []
        self.skipped = False        # a step of this block not run by the bundle
        if self.bundle and any("$PWD/dist/kmetric-gui" in line for line in block.commands):
            # The menu entry links the bundle as built: $PWD/dist/kmetric-gui/...
            (self.cwd / "dist").mkdir(exist_ok=True)
            (self.cwd / "dist" / "kmetric-gui").symlink_to(self.bundle, target_is_directory=True)
        for number, line in enumerate(block.commands, 1):
            tokens = shlex.split(line, comments=True, posix=True)
            steps, step = [], []
            for t in tokens + ["&&"]:
                if t == "&&":
                    steps.append(step)
                    step = []
                else:
                    step.append(t)
            out = ""
            for words in steps:
                try:
                    argv, checks = self.plan(words, block.subs)
                    r = self.run_step(argv, checks)
                except NotRun as why:
                    record.append((" ".join(words), f"not run: {why}"))
                    continue
                shown = " ".join(words)
                assert r.returncode == 0, (f"{block.name}: `{shown}` exited {r.returncode}\n"
                                           f"stdout:\n{r.stdout[-3000:]}\nstderr:\n{r.stderr[-3000:]}")
                assert "Traceback" not in r.stderr, f"{block.name}: `{shown}`\n{r.stderr}"
                if "shot" in checks:
                    shot = Path(checks["shot"])
                    shot = shot if shot.is_absolute() else self.cwd / shot
                    assert shot.is_file() and shot.stat().st_size > 20_000, f"{shot} not drawn"
                out += r.stdout
                record.append((shown, "ran"))
            if number in block.outputs:
                check_output(block, number, out)
        return record


def _share_packages(venv):
    """The new environment sees the running interpreter's packages (after its own)."""
    python = Path(_exe(venv / ("Scripts" if WINDOWS else "bin"), "python"))
    r = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                       capture_output=True, text=True, check=True)
    Path(r.stdout.strip(), "shared_packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")


def check_output(block, number, stdout):
    shown = block.outputs[number]
    got = [line.rstrip() for line in stdout.splitlines()]
    n = len(shown)
    if any(got[i:i + n] == shown for i in range(len(got) - n + 1)):
        return
    # The closest window, for a readable difference.
    best = max(range(max(1, len(got) - n + 1)),
               key=lambda i: difflib.SequenceMatcher(None, got[i:i + n], shown).ratio())
    diff = "\n".join(difflib.unified_diff(shown, got[best:best + n], "shown in the docs",
                                          "printed", lineterm=""))
    raise AssertionError(f"{block.name}: command {number} prints something else than the docs show:\n"
                         f"{diff}\n\nwhole output:\n{stdout}")
