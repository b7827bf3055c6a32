"""The variant options a built-in may declare (weights, mask, rounding, groups) and how a
metric's options read them: shared by the variants' scoring (metrics/variants.py) and
the reading of their solution columns (metrics/variant_columns.py)."""
from .schema import Option

VARIANT_OPTIONS = (
    Option("weights_column", str, None, help="a solution column of row weights (>= 0): the "
           "weighted metric (scikit-learn's sample_weight)", label="Weights column", reads=True,
           unset="none"),
    Option("mask_column", str, None, help="a solution column of 1/0 (true/false): only rows "
           "holding 1 are scored", label="Mask column", reads=True, unset="none"),
    Option("round", int, None, minimum=0, maximum=15, help="predictions rounded to N decimals "
           "before scoring (0: whole numbers; half to even, as numpy)", label="Round to",
           unset="none"),
    Option("group_by", str, None, help="a solution column of groups: the metric of each group, "
           "then their mean", label="Group by", reads=True, unset="none"),
    Option("group_transform", str, "none", ("none", "log"), help="each group's score before "
           "the mean: as it is, or its log (floored at 1e-9, as CHAMPS's log-MAE by type)",
           label="Group transform", choice_labels=("none", "log")),
)
VARIANT_NAMES = tuple(o.name for o in VARIANT_OPTIONS)
_BY_NAME = {o.name: o for o in VARIANT_OPTIONS}
FLAGS = {"weights_column": "--weights-column", "mask_column": "--mask-column",
         "group_by": "--group-by"}


def with_variants(options, names):
    """A metric's options followed by the declared variants ``names`` (in one order)."""
    own = tuple(o for o in options if o.name not in VARIANT_NAMES)
    return own + tuple(_BY_NAME[n] for n in VARIANT_NAMES if n in names)


def declares(metric, name):
    return any(o.name == name for o in metric.options)


def option(metric, options, name):
    return getattr(options, name, None) if declares(metric, name) else None
