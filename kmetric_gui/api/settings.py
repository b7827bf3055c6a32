"""Keyword arguments of the API as the commands' settings, checked by the very code
that checks the flags (cli/stats.py, cli/compare.py, ...), so a value the CLI
refuses is refused here in the same words, with the keyword's name for the flag
(``ci must be between 0 and 1`` where the CLI says ``--ci must be ...``)."""
from __future__ import annotations

import re
from types import SimpleNamespace

from .errors import refuse

_FLAG = re.compile(r"--([a-z][a-z0-9-]*)")


def words(line: str) -> str:
    """A CLI message with keyword names for its flags: '--public-fraction' -> 'public_fraction'."""
    return _FLAG.sub(lambda m: m.group(1).replace("-", "_"), str(line))


def _text(v):
    """A value as the flag's text (the CLI's checks read text)."""
    if v is None:
        return None
    if isinstance(v, bool):
        return str(int(v))
    return str(v)


def _checked(problems):
    if problems:
        raise refuse(*[words(p) for p in problems])


def stats_settings(ci=None, bootstrap=None, ci_method=None, coverage_check=False, seed=None,
                   shakeup=False, public_fraction=None, splits=None):
    """(StatsOptions or None, ShakeupOptions or None) as `kmetric score` makes them.
    ``ci``: a level such as 0.95, or True for 0.95."""
    from ..cli.stats import stats_options
    if ci is True:
        ci = 0.95
    elif ci is False:
        ci = None
    args = SimpleNamespace(ci=_text(ci), bootstrap=_text(bootstrap), ci_method=ci_method,
                           coverage_check=bool(coverage_check), seed=_text(seed),
                           shakeup=bool(shakeup), public_fraction=_text(public_fraction),
                           splits=_text(splits))
    from ..core.intervals import CHOICES
    if ci_method is not None and ci_method not in CHOICES:
        raise refuse(f"ci_method must be one of {', '.join(CHOICES)}; got {ci_method!r}")
    ci_opts, shake, problems = stats_options(args)
    _checked(problems)
    return ci_opts, shake


def compare_settings(n, ci=None, bootstrap=None, permutations=None, ci_method=None, seed=None,
                     coverage_check=False, public_fraction=None, splits=None):
    """comparison.CompareOptions as `kmetric compare` makes them (``n`` submissions)."""
    from ..cli.compare import compare_options
    if ci is True:
        ci = 0.95
    args = SimpleNamespace(ci=_text(ci if ci is not False else None), bootstrap=_text(bootstrap),
                           permutations=_text(permutations), seed=_text(seed),
                           public_fraction=_text(public_fraction), splits=_text(splits),
                           ci_method=ci_method, coverage_check=bool(coverage_check),
                           submissions=[None] * n)
    opts, problems = compare_options(args)
    _checked(problems)
    return opts


def select_settings(n, pick=None, ci=None, bootstrap=None, seed=None, draws=None):
    from ..cli.select import select_options
    if ci is True:
        ci = 0.95
    if draws is not None and draws not in ("auto", "exact", "normal"):
        raise refuse(f"draws must be auto, exact or normal; got {draws!r}")
    args = SimpleNamespace(pick=_text(pick), ci=_text(ci if ci is not False else None),
                           bootstrap=_text(bootstrap), seed=_text(seed), draws=draws,
                           submissions=[None] * n)
    opts, problems = select_options(args)
    _checked(problems)
    return opts


def rank_settings(correlation=None, simulations=None, seed=None, team=None,
                  submission_time=None):
    from ..cli.rank import rank_options
    args = SimpleNamespace(correlation=_text(correlation), simulations=_text(simulations),
                           seed=_text(seed), team=team, submission_time=_text(submission_time))
    opts, problems = rank_options(args)
    _checked(problems)
    return opts


def top_fixes_setting(top):
    if top is None:
        return None
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise refuse(f"top_fixes expects a whole number of at least 1; got {top!r}")
    return top


__all__ = ["stats_settings", "compare_settings", "select_settings", "rank_settings",
           "top_fixes_setting", "words"]
