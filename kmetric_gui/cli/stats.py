"""Statistics flags of `kmetric score`: bootstrap intervals and the shake-up.

Values are read as text and checked here, so a bad one is one line naming
the flag and the allowed range (exit 2), like every other input problem.
"""
import math

MAX_COUNT = 1_000_000      # replicates / splits: beyond this it is surely a typo
METHOD_CHOICES = ["auto", "percentile", "bca", "calibrated", "studentised", "score"]


def add_stats_options(s, groups=False):
    g = s.add_argument_group("how sure is the score (bootstrap and shake-up)")
    g.add_argument("--ci", metavar="LEVEL",
                   help="add a bootstrap confidence interval at this level, e.g. 0.95 (0 < LEVEL < 1)")
    g.add_argument("--bootstrap", metavar="B",
                   help=f"bootstrap replicates (default 2000, at most {MAX_COUNT:,}); implies --ci 0.95")
    g.add_argument("--ci-method", choices=METHOD_CHOICES,
                   help="interval method (default auto, the one measured to hold here; the "
                        "output says which): studentised for the mean of one per-unit value "
                        "(losses, errors), percentile for ratios of sums; for a confusion matrix "
                        "calibrated below 50 rows (below 200 with three classes or more) or "
                        "with a class of under 6 rows, else percentile; for a rank statistic of "
                        "one 0/1 column the score interval "
                        "below 50 rows of the rarer class, else percentile. bca: bias-corrected "
                        "and accelerated; calibrated: the double bootstrap; studentised: the "
                        "bootstrap-t; score: a rank statistic's closed-form score interval")
    g.add_argument("--coverage-check", action="store_true",
                   help="measure the interval method's coverage at this size: 200 datasets drawn "
                        "from this data (its tail widened when it is heavy), the interval on each "
                        "(implies --ci 0.95; needs at least 10 units)")
    if groups:
        add_group_options(g)
    g.add_argument("--seed", metavar="S", help="random seed of the bootstrap and the shake-up (default 0)")
    g.add_argument("--shakeup", action="store_true",
                   help="simulate random Public/Private splits: the distribution of private - public")
    g.add_argument("--public-fraction", metavar="F",
                   help="shake-up: Public share of the units (0 < F < 1; default: the solution's "
                        "Usage column share when it has one, else 0.3)")
    g.add_argument("--splits", metavar="S",
                   help=f"shake-up: number of random splits (default 2000, at most {MAX_COUNT:,})")


def add_group_options(g):
    """--group-column / --groups (score, compare, report)."""
    grp = g.add_mutually_exclusive_group()
    grp.add_argument("--group-column", metavar="NAME",
                     help="rows come in groups (e.g. one patient's images): a column of the "
                          "solution naming each row's group; intervals and shake-up resample and "
                          "split whole groups")
    grp.add_argument("--groups", metavar="FILE",
                     help="as --group-column, from a file of id,group rows")


def _number(text, flag, problems, integer=False):
    try:
        v = int(text) if integer else float(text)
    except ValueError:
        problems.append(f"{flag} expects {'an integer' if integer else 'a number'}; got '{text}'")
        return None
    if not math.isfinite(v):
        problems.append(f"{flag} expects a finite number; got '{text}'")
        return None
    return v


def _fraction(text, flag, problems):
    v = _number(text, flag, problems)
    if v is not None and not 0 < v < 1:
        problems.append(f"{flag} must be between 0 and 1 (exclusive); got {text}")
        return None
    return v


def _count(text, flag, problems):
    v = _number(text, flag, problems, integer=True)
    if v is not None and not 1 <= v <= MAX_COUNT:
        problems.append(f"{flag} must be between 1 and {MAX_COUNT:,}; got {text}")
        return None
    return v


def level_problem(level, reps, problems, flag="--bootstrap"):
    """A level the replicates cannot hold: each end needs a replicate beyond it."""
    from ..core.intervals import min_replicates
    if level is None or reps is None:
        return
    need = min_replicates(level)
    if reps < need:
        extra = "" if need <= MAX_COUNT else f" (above the limit of {MAX_COUNT:,}: lower the level)"
        problems.append(f"a {100 * level:g}% interval needs at least {need:,} replicates; "
                        f"{flag} is {reps:,}{extra}")


def stats_options(args):
    """(StatsOptions or None, ShakeupOptions or None, problems) from the parsed flags."""
    problems = []
    seed = 0
    if args.seed is not None:
        seed = _number(args.seed, "--seed", problems, integer=True)
        if seed is not None and seed < 0:
            problems.append(f"--seed must be 0 or more; got {args.seed}")
    level = _fraction(args.ci, "--ci", problems) if args.ci is not None else None
    reps = _count(args.bootstrap, "--bootstrap", problems) if args.bootstrap is not None else 2000
    want_ci = any(x is not None for x in (args.ci, args.bootstrap, args.ci_method)) \
        or args.coverage_check
    fraction = (_fraction(args.public_fraction, "--public-fraction", problems)
                if args.public_fraction is not None else None)
    splits = _count(args.splits, "--splits", problems) if args.splits is not None else 2000
    for flag, value in (("--public-fraction", args.public_fraction), ("--splits", args.splits)):
        if value is not None and not args.shakeup:
            problems.append(f"{flag} is a shake-up option: add --shakeup")
    if want_ci and level is not None or args.bootstrap is not None:
        level_problem(level if level is not None else 0.95, reps, problems)
    if problems:
        return None, None, problems
    if not (want_ci or args.shakeup):     # kmetric_gui.analysis.stats only when asked (30 ms to import)
        return None, None, []
    from ..core.coverage import SIMULATIONS
    from ..analysis.stats import ShakeupOptions, StatsOptions
    ci = (StatsOptions(level if level is not None else 0.95, reps, seed, args.ci_method or "auto",
                       SIMULATIONS if args.coverage_check else 0)
          if want_ci else None)
    shake = ShakeupOptions(fraction, splits, seed) if args.shakeup else None
    return ci, shake, []


def groups_of(rep, args):
    """Group label per solution row from --group-column / --groups, or None."""
    if getattr(args, "group_column", None) is None and getattr(args, "groups", None) is None:
        return None
    from ..analysis.grouping import read_groups
    return read_groups(rep.prepared, truth_path=args.truth, column=args.group_column,
                       path=args.groups)


def apply_stats(rep, d, lines, ci, shake, groups=None):
    """Add the statistics to the JSON object ``d`` and the human ``lines`` (in place)."""
    from ..analysis.stats import analyze, coverage_text, interval_text, shakeup, shakeup_lines
    from ..errors import InputError
    st = analyze(rep, ci, None, strict=True, groups=groups)
    if shake is not None:
        try:
            st.shakeup = shakeup(rep, shake, groups=groups)
        except InputError as e:
            raise InputError(f"--shakeup: {e}") from None
    d.update(st.to_json())
    seed = ci.seed if ci else None
    labels = {"ci": "score:", "public_ci": "public:", "private_ci": "private:"}
    for key, iv in st.intervals.items():
        for i, line in enumerate(lines):
            if line.startswith(labels[key]):
                lines[i] = f"{line}  {interval_text(iv, seed, ci.method)}"
                extra = [f"         warning: {w}" for w in iv.warnings]
                if iv.coverage is not None:
                    extra.insert(0, f"         {coverage_text(iv)}")
                lines[i + 1:i + 1] = extra
                break
    if st.intervals:
        lines.append(f"         ({100 * ci.level:g}% intervals: for the score on the whole population "
                     "this test set was drawn from; another test set of this size varies more)")
    if st.class_intervals:
        used = next(iter(st.class_intervals.values())).method
        lines.append(f"per class ({100 * ci.level:g}% CI, {used}):")
        width = max(len(str(n)) for n in st.class_intervals)
        for name, iv in st.class_intervals.items():
            lines.append(f"  {str(name):<{width}}  {_point(st.class_points[name])}  {_short(iv)}")
    if st.shakeup is not None:
        lines.extend(shakeup_lines(st.shakeup))
    return d, lines


def _point(x):
    return "no positives" if not math.isfinite(x) else f"{x:.4f}"


def _short(iv):
    if not (math.isfinite(iv.low) and math.isfinite(iv.high)):
        return "[undefined]" + (f"  ({iv.undefined} undefined)" if iv.undefined else "")
    extra = f"  ({iv.undefined} undefined)" if iv.undefined else ""
    return f"[{iv.low:.4f}, {iv.high:.4f}]{extra}"
