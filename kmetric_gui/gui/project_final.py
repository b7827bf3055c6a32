"""The final-submissions dialog (select and rank) in a `.kmetric` project, without Qt.

    "final": {"truth": FILE, "candidates": [FILE, ...], "leaderboard": FILE | null,
              "pick": 2, "correlation": 0.5, "ran": true}

FILE is a file reference as the project's others are (path, absolute, size,
sha256). Only the inputs are kept, not the results: the draws are seeded, so
running again on the same files gives the same numbers, and a result saved
beside files that changed since would show numbers no file supports. When
``ran`` is true the dialog runs again on open; a file whose hash differs is
said first.
"""
from pathlib import Path

MAX_CANDIDATES = 1000
MAX_PICK = 20
KEYS = ("truth", "candidates", "leaderboard", "pick", "correlation", "ran")


def final_json(truth, candidates, leaderboard, pick, correlation, ran):
    """The project's ``final`` object from FileRefs (leaderboard None when not given)."""
    def ref(r):
        return {"path": r.path, "absolute": r.absolute, "size": r.size, "sha256": r.sha256}
    return {"truth": ref(truth), "candidates": [ref(r) for r in candidates],
            "leaderboard": ref(leaderboard) if leaderboard is not None else None,
            "pick": int(pick), "correlation": float(correlation), "ran": bool(ran)}


def check_final(raw, problems):
    """The ``final`` object as FileRefs and settings, or None (problems said)."""
    from .project_refs import _ref
    from .project_schema import _finite, _whole, check_file, key_text
    if raw is None:
        return None
    if not isinstance(raw, dict):
        problems.add("final", "must be an object")
        return None
    before = len(problems)
    for key in raw:
        if key not in KEYS:
            problems.add(f"final.{key_text(key)}", f"is not a field; known: {', '.join(KEYS)}")
    check_file(raw.get("truth"), "final.truth", problems, "final")
    cands = raw.get("candidates")
    if not isinstance(cands, list) or not 1 <= len(cands) <= MAX_CANDIDATES:
        problems.add("final.candidates", f"must be a list of 1 to {MAX_CANDIDATES} files")
        cands = []
    for k, c in enumerate(cands):
        if len(problems) - before > 20:
            break
        check_file(c, f"final.candidates[{k}]", problems, "final")
    board = raw.get("leaderboard")
    if board is not None:
        check_file(board, "final.leaderboard", problems, "final")
    if not _whole(raw.get("pick"), 1, MAX_PICK):
        problems.add("final.pick", f"must be a whole number from 1 to {MAX_PICK}")
    rho = raw.get("correlation")
    if not (_finite(rho) and -1 <= rho <= 1):
        problems.add("final.correlation", "must be a number from -1 to 1")
    if not isinstance(raw.get("ran", False), bool):
        problems.add("final.ran", "must be true or false")
    if len(problems) > before:
        return None
    return {"truth": _ref("final", raw["truth"]),
            "candidates": [_ref("final", c) for c in cands],
            "leaderboard": _ref("final", board) if board is not None else None,
            "pick": raw["pick"], "correlation": float(rho), "ran": raw.get("ran", False)}


def refs_of(final):
    """(what, FileRef) of every file the final object names."""
    out = [("truth", final["truth"])] + [("candidate", r) for r in final["candidates"]]
    if final["leaderboard"] is not None:
        out.append(("leaderboard", final["leaderboard"]))
    return out


def located(final, project_path):
    """[(what, FileRef, path found or None)] (relative to the project first)."""
    from .project_refs import locate
    return [(what, ref, locate(ref, project_path)) for what, ref in refs_of(final)]


def changes_said(found, hashes):
    """Lines for the files not found and those whose sha256 changed since the save."""
    missing = [f"{what} {Path(ref.path).name}" for what, ref, p in found if p is None]
    changed = [f"{what} {Path(p).name}" for (what, ref, p), h in zip(found, hashes)
               if p is not None and h != ref.sha256]
    lines = []
    if changed:
        lines.append(f"Final submissions: changed on disk since the project was saved "
                     f"(sha256 differs): {', '.join(changed)}.")
    if missing:
        lines.append(f"Final submissions: not found any more: {', '.join(missing)}.")
    return lines


def state_of(final, found):
    """The dialog's inputs (paths as found; files not found left out)."""
    paths = {id(ref): p for _, ref, p in found}
    board = final["leaderboard"]
    return {"truth": paths.get(id(final["truth"])) or final["truth"].absolute,
            "candidates": [paths[id(r)] for r in final["candidates"] if paths.get(id(r))],
            "leaderboard": (paths.get(id(board)) or "") if board is not None else "",
            "pick": final["pick"], "correlation": final["correlation"], "ran": final["ran"]}


__all__ = ["final_json", "check_final", "located", "changes_said", "state_of", "MAX_CANDIDATES"]


def final_refs(state, folder, cancel=None):
    """The ``final`` object of a dialog's inputs, files hashed (slow: on a worker); None
    when there is nothing to keep. Files that are not there are left out."""
    from .project_refs import file_ref

    def ref(p):
        return file_ref(p, "final", folder, cancel) if p and Path(p).is_file() else None
    truth = ref(state["truth"])
    cands = [r for r in map(ref, state["candidates"]) if r is not None]
    if truth is None or not cands:
        return None
    return final_json(truth, cands, ref(state["leaderboard"]), state["pick"],
                      state["correlation"], state["ran"])


def dialog_state(win):
    """The open final-submissions dialog's inputs, or None (never opened, or empty)."""
    dlg = getattr(win, "final_dialog", None)
    if dlg is None:
        return None
    try:
        state = dlg.state()
    except RuntimeError:          # its C++ side is gone
        return None
    return state if state["truth"] and state["candidates"] else None
