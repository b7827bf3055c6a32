"""What the user is told before a metric file runs: the CLI's note and the app's
question share these words (plain text)."""


def rights(state):
    """What the code may do, with the sandbox's limits where there is one."""
    if state.used:
        return ("It runs with your user's rights, inside a sandbox (bubblewrap) that limits it: "
                "no network; it can read your files but change only its own scratch folder; "
                "~/.ssh and other secrets are hidden; a short environment.")
    return ("It runs with your user's rights: it can read, change and delete your files and "
            f"use the network. No sandbox is used: {state.reason}.")


def limits(lim):
    """The limits every run has, sandbox or not."""
    return (f"Its processes run in a session of their own and all end with the run; it is "
            f"stopped after {lim.timeout:g} s (--metric-timeout), with {lim.memory_words()}.")


def python(env, other=None):
    """'Python 3.11.7 (pandas 2.2.3, numpy 2.1.0)', with its path when it is another one."""
    if not env:
        return ""
    libs = ", ".join(f"{k} {env[k]}" for k in ("pandas", "numpy") if env.get(k))
    where = f" at {other}" if other else ""
    return f"Python {env.get('python', '?')}{where}" + (f" ({libs})" if libs else "")


def note(name, state, lim, env=None):
    """The CLI's note (lines without the 'kmetric: note: ' prefix)."""
    lines = [f"metric file {name} is Python code. {rights(state)}", limits(lim)]
    if env:
        lines.append(f"It runs in {python(env, lim.python)}. (This note is shown once per file "
                     "content and place.)")
    return lines


def call_time(seconds):
    """One call's time in words: '2.4 ms' below a second ('0.00 s' said nothing)."""
    return f"{1000 * seconds:.1f} ms" if seconds < 1 else f"{seconds:.1f} s"
