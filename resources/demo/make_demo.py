"""Regenerate the demo file pairs in this folder (fixed seed, stdlib + numpy).

    python resources/demo/make_demo.py
"""
import csv
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2019)
rng_b = np.random.default_rng(2013)   # second submissions: their own stream, so the first files never change


def write(name, header, rows):
    with open(os.path.join(HERE, name), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def qwk():
    # APTOS-like: 5 grades of diabetic retinopathy, imbalanced, errors mostly +-1.
    n = 600
    ids = [f"{x:012x}" for x in rng.choice(2 ** 48, n, replace=False)]
    truth = rng.choice(5, n, p=[0.49, 0.10, 0.27, 0.05, 0.09])
    noise = rng.choice([-2, -1, 0, 0, 0, 0, 0, 1, 2], n)
    pred = np.clip(truth + noise, 0, 4)
    usage = np.where(rng.random(n) < 0.3, "Public", "Private")
    write("qwk_solution.csv", ["id_code", "diagnosis", "Usage"],
          zip(ids, truth, usage))
    order = rng.permutation(n)
    write("qwk_submission.csv", ["id_code", "diagnosis"],
          ((ids[i], pred[i]) for i in order))
    return ids, truth


def qwk_b(ids, truth):
    # A second model: rarely misses low, but over-grades (mild cases most).
    n = len(ids)
    noise = rng_b.choice([-1, -1, 0, 0, 0, 0, 1, 1, 2], n)
    pred = np.clip(truth + noise + (truth == 1) * (rng_b.random(n) < 0.3), 0, 4)
    write("qwk_submission_b.csv", ["id_code", "diagnosis"],
          ((ids[i], pred[i]) for i in rng_b.permutation(n)))


CLASSES = ["Accordion", "Bark", "Bass_guitar", "Church_bell", "Cricket",
           "Meow", "Walk_and_footsteps", "Writing"]


def lwlrap():
    # FSDKaggle2019-like: fname,labels (comma-joined) vs one score column per class.
    n, c = 240, len(CLASSES)
    names = [f"{x:08x}.wav" for x in rng.choice(2 ** 32, n, replace=False)]
    truth = np.zeros((n, c), dtype=int)
    for i in range(n):
        k = rng.choice([1, 1, 1, 2, 2, 3])
        truth[i, rng.choice(c, k, replace=False)] = 1
    # Some classes are easy, some hard: the per-class view has something to show.
    signal = np.linspace(1.0, 0.15, c)[rng.permutation(c)]
    scores = np.round(np.clip(rng.random((n, c)) * 0.6 + truth * rng.random((n, c)) * signal, 0, 1), 3)
    scores[::17, 0] = scores[::17, 1]   # a few exact ties
    write("lwlrap_solution.csv", ["fname", "labels"],
          ((names[i], ",".join(CLASSES[j] for j in np.flatnonzero(truth[i]))) for i in range(n)))
    write("lwlrap_submission.csv", ["fname", *CLASSES],
          ([names[i], *scores[i]] for i in rng.permutation(n)))
    return names, truth


def lwlrap_b(names, truth):
    # A second model that finds other classes easy: blending it with the first helps.
    n, c = truth.shape
    signal = np.linspace(0.9, 0.2, c)[rng_b.permutation(c)]
    scores = np.round(np.clip(rng_b.random((n, c)) * 0.6 + truth * rng_b.random((n, c)) * signal,
                              0, 1), 3)
    write("lwlrap_submission_b.csv", ["fname", *CLASSES],
          ([names[i], *scores[i]] for i in rng_b.permutation(n)))


DATASETS = ["National Education Longitudinal Study", "Baccalaureate and Beyond",
            "Beginning Postsecondary Student", "Education Longitudinal Study",
            "Census of Agriculture", "Agricultural Resource Management Survey",
            "Survey of Earned Doctorates", "Trends in International Mathematics and Science Study",
            "Alzheimer's Disease Neuroimaging Initiative (ADNI)", "NOAA Tide Gauge"]


def clean(s):
    import re
    return re.sub(r"[^A-Za-z0-9]+", " ", s).lower().strip()


def fbeta():
    # Coleridge-like: train.csv one row per (Id, label); submission Id,PredictionString.
    n = 120
    ids = [f"{a:08x}-{b:04x}-{c:04x}-{d:04x}-{e:012x}" for a, b, c, d, e in
           zip(*(rng.integers(0, 2 ** k, n) for k in (32, 16, 16, 16, 48)))]
    rows, subs, truths = [], [], []
    for i in ids:
        labels = list(rng.choice(DATASETS, rng.choice([1, 1, 2, 3]), replace=False))
        truths.append(labels)
        for lab in labels:
            rows.append([i, f"Paper about {lab.split()[0]}", lab, lab, clean(lab)])
        preds = []
        for lab in labels:
            r = rng.random()
            if r < 0.55:
                preds.append(clean(lab))
            elif r < 0.75:
                preds.append(clean(" ".join(lab.split()[1:]) or lab))
        if rng.random() < 0.3:
            preds.append(clean(rng.choice(DATASETS)) + " data")
        subs.append([i, "|".join(preds)])
    write("fbeta_solution.csv", ["Id", "pub_title", "dataset_title", "dataset_label",
                                 "cleaned_label"], rows)
    write("fbeta_submission.csv", ["Id", "PredictionString"],
          (subs[i] for i in rng.permutation(n)))
    return ids, truths


def fbeta_b(ids, truths):
    # A second model: finds more labels (often a shortened name), guesses a little more.
    subs = []
    for i, labels in zip(ids, truths):
        preds = []
        for lab in labels:
            r = rng_b.random()
            if r < 0.6:
                preds.append(clean(lab))
            elif r < 0.85:
                preds.append(clean(" ".join(lab.split()[:-1]) or lab))
        if rng_b.random() < 0.35:
            preds.append(clean(rng_b.choice(DATASETS)))
        subs.append([i, "|".join(preds)])
    write("fbeta_submission_b.csv", ["Id", "PredictionString"],
          (subs[k] for k in rng_b.permutation(len(ids))))


if __name__ == "__main__":
    q, lw, fb = qwk(), lwlrap(), fbeta()   # first submissions: this order keeps their files
    qwk_b(*q)
    lwlrap_b(*lw)
    fbeta_b(*fb)
