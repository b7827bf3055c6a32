"""Files the docs' command blocks run with beside the shipped demos (fixed seed; rerun to
refresh): a third kappa submission, a public leaderboard, a kappa metric file in Kaggle's
form, a second KL submission and the KL example metric file as a notebook.
tests/test_docs_commands.py names them.

    python tests/docs_data/make_files.py
"""
import csv
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEMO = ROOT / "resources" / "demo"


def third_submission(rng):
    """qwk_submission_b.csv with a tenth of its ratings moved by one step."""
    with open(DEMO / "qwk_submission_b.csv", newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    for i in rng.choice(len(body), size=len(body) // 10, replace=False):
        rating = int(body[i][1])
        body[i][1] = str(min(4, max(0, rating + int(rng.choice([-1, 1])))))
    with open(HERE / "qwk_submission_c.csv", "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header, *body])


def leaderboard(rng, teams=300):
    """Kaggle's public leaderboard download: TeamId, TeamName, SubmissionDate, Score."""
    scores = np.sort(np.clip(rng.normal(0.76, 0.05, size=teams), 0.3, 0.95))[::-1]
    with open(HERE / "qwk_leaderboard.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["TeamId", "TeamName", "SubmissionDate", "Score"])
        for i, s in enumerate(scores):
            w.writerow([1000 + i, f"team {i + 1}", "2024-05-01 12:00:00", f"{s:.5f}"])


def second_kl_submission():
    """kl_submission.csv pulled a third of the way toward uniform probabilities."""
    with open(ROOT / "resources" / "metrics" / "kl_submission.csv", newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    k = len(header) - 1
    out = [[r[0], *(f"{(2 * float(v) + 1 / k) / 3:.6f}" for v in r[1:])] for r in body]
    with open(HERE / "kl_submission_b.csv", "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header, *out])


def notebook():
    """The KL example metric file as a notebook: one code cell, as Kaggle saves one."""
    source = (ROOT / "resources" / "metrics" / "kl_divergence.py").read_text()
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": source.splitlines(keepends=True)}
    nb = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (HERE / "kl_divergence.ipynb").write_text(json.dumps(nb, indent=1) + "\n")


if __name__ == "__main__":
    rng = np.random.default_rng(39)
    third_submission(rng)
    leaderboard(rng)
    second_kl_submission()
    notebook()
