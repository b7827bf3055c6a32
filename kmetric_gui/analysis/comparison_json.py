"""The `kmetric compare --json` object of a Comparison (analysis/comparison.py)."""
import numpy as np

from ..core.multiple import holm
from ..core.power import min_detectable_delta


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def comparison_json(cmp):
    """The `kmetric compare --json` object of DESIGN.md (plus a few added keys)."""
    seed = cmp.options.seed
    subs = []
    for s in cmp.submissions:
        d = {"name": s.name, "score": _num(s.score), "higher_is_better": cmp.higher_is_better,
             "ci": s.intervals["ci"].to_dict(seed),
             "public": _num(s.split_score("public")), "private": _num(s.split_score("private"))}
        for key in ("public_ci", "private_ci"):
            if key in s.intervals:
                d[key] = s.intervals[key].to_dict(seed)
        subs.append(d)
    pairs = []
    # 3+ submissions: several pairs tested at once, so the p-values are also Holm-adjusted.
    holm_p = (holm([p.stats.p_value for p in cmp.pairs]) if len(cmp.submissions) > 2
              else [None] * len(cmp.pairs))
    for p, ph in zip(cmp.pairs, holm_p):
        st = p.stats
        d = {"a": cmp.submissions[p.a].name, "b": cmp.submissions[p.b].name,
             "delta": _num(st.delta), "delta_ci": st.delta_ci.to_dict(seed),
             "p_b_better": _num(st.p_b_better), "p_a_better": _num(st.p_a_better),
             "p_value": _num(st.p_value),
             **({} if ph is None else {"p_value_holm": _num(ph)}),
             "permutations": st.permutations,
             "public_delta": _split_delta(p, "public"), "private_delta": _split_delta(p, "private"),
             "p_order_flips": _num(st.p_order_flips),
             "min_detectable_delta": _num(min_detectable_delta(st.delta_ci.se))}   # 80 % power
        for s, ss in p.split_stats.items():
            d[f"{s}_delta_ci"] = ss.delta_ci.to_dict(seed)
        if p.blend is not None:
            d["blend"] = {"best_alpha": _num(p.blend.best_alpha), "best_score": _num(p.blend.best_score),
                          "alphas": p.blend.alphas.tolist(),
                          "scores": [_num(x) for x in p.blend.scores],
                          "held_out": [{"fit_on": h.fit_on, "held": h.held, "alpha": _num(h.alpha),
                                        "score": _num(h.score), "a_score": _num(h.a_score),
                                        "b_score": _num(h.b_score)} for h in p.blend.held_out]}
        elif p.blend_note:
            d["blend_unavailable"] = p.blend_note
        differ = _differ(cmp, p.differ)
        if differ is not None:
            d["where_they_differ"] = differ
        if p.same_file:
            d["same_file"] = True
        pairs.append(d)
    out = {"metric": cmp.metric, "higher_is_better": cmp.higher_is_better,
           "n_units": cmp.n_units, "unit": cmp.unit, "submissions": subs, "pairs": pairs,
           "public_fraction": _num(cmp.public_fraction), "splits": cmp.options.splits,
           "replicates": cmp.options.replicates, "seed": seed}
    if cmp.warnings:
        out["warnings"] = list(cmp.warnings)
    if cmp.skipped:
        out["skipped"] = cmp.skipped
    return out


def _differ(cmp, d, listed=10):
    """Counts and the first units of a kernels.differ.UnitDiffer (other kinds: None)."""
    if d is None or not hasattr(d, "units") or not hasattr(d, "delta"):
        return None
    b, a = d.wins
    ids = cmp.ids
    return {"unit": d.unit, "units_differ": int(d.units.size), "b_better": b, "a_better": a,
            "delta": d.what,
            "largest": [{"id": str(ids[int(u)]), "delta": _num(x)}
                        for u, x in zip(d.units[:listed], d.delta[:listed])]}


def _split_delta(pair, split):
    st = pair.split_stats.get(split)
    return None if st is None else _num(st.delta)
