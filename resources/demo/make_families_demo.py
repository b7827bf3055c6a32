"""Regenerate the demo file pairs of the common families (fixed seed, stdlib + numpy).

    python resources/demo/make_families_demo.py

One solution (with a Usage column) and two submissions per metric, named
<metric>_solution.csv, <metric>_submission.csv, <metric>_submission_b.csv:
auc (binary scores), logloss (multi-class probabilities), accuracy (text
labels), f1 (0/1 labels), mapk (space-separated items), rmse / rmsle / mae
(one real column, the same data), mcrmse (three real columns).

Issue 35's families, made after those (so their files stay as they were): pearson,
kendall (one real column), spearman (three rating columns, Google QUEST style), mcc
(text labels), smape / mape (sales with zeros), ndcg (ranked items), levenshtein (short
texts with typos), jaccard_words (tweets and the words that carry their sentiment),
kl_divergence (vote fractions of six classes), laplace_ll (OSIC: FVC and a
confidence), angular (IceCube: azimuth and zenith).
"""
import csv
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
N = 400


def write(name, header, rows, also=()):
    rows = list(rows)
    for target in (name,) + tuple(name.replace(name.split("_")[0], a, 1) for a in also):
        with open(os.path.join(HERE, target), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)


def ids_usage(rng, prefix):
    ids = [f"{prefix}{i:05d}" for i in rng.permutation(N)]
    usage = np.where(rng.random(N) < 0.3, "Public", "Private")
    return ids, usage


def binary(rng):
    ids, usage = ids_usage(rng, "b")
    y = (rng.random(N) < 0.3).astype(int)
    write("auc_solution.csv", ["id", "target", "Usage"], zip(ids, y, usage))
    for name, sep in (("auc_submission.csv", 1.4), ("auc_submission_b.csv", 1.0)):
        logit = rng.normal(0, 1, N) + sep * (2 * y - 1)
        p = 1 / (1 + np.exp(-logit))
        order = rng.permutation(N)
        write(name, ["id", "target"], ((ids[i], f"{p[i]:.5f}") for i in order))


CLASSES = ["cat", "dog", "fox", "owl"]


def multiclass(rng):
    ids, usage = ids_usage(rng, "m")
    y = rng.choice(len(CLASSES), N, p=[0.4, 0.3, 0.2, 0.1])
    write("logloss_solution.csv", ["id", "label", "Usage"],
          ((i, CLASSES[c], u) for i, c, u in zip(ids, y, usage)))
    for name, sharp in (("logloss_submission.csv", 1.6), ("logloss_submission_b.csv", 1.1)):
        logits = rng.normal(0, 1, (N, len(CLASSES))) + sharp * np.eye(len(CLASSES))[y]
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        write(name, ["id"] + CLASSES, ([ids[i]] + [f"{v:.5f}" for v in p[i]]
                                       for i in rng.permutation(N)))
    return ids, y, usage


def labels(rng, ids, y, usage):
    write("accuracy_solution.csv", ["id", "label", "Usage"],
          ((i, CLASSES[c], u) for i, c, u in zip(ids, y, usage)))
    for name, right in (("accuracy_submission.csv", 0.75), ("accuracy_submission_b.csv", 0.65)):
        pred = np.where(rng.random(N) < right, y, rng.integers(0, len(CLASSES), N))
        write(name, ["id", "label"], ((ids[i], CLASSES[pred[i]]) for i in rng.permutation(N)))


def binary_labels(rng):
    ids, usage = ids_usage(rng, "f")
    y = (rng.random(N) < 0.25).astype(int)
    write("f1_solution.csv", ["id", "is_fraud", "Usage"], zip(ids, y, usage))
    for name, recall, false_alarm in (("f1_submission.csv", 0.8, 0.08),
                                      ("f1_submission_b.csv", 0.65, 0.05)):
        pred = np.where(y == 1, rng.random(N) < recall, rng.random(N) < false_alarm).astype(int)
        write(name, ["id", "is_fraud"], ((ids[i], pred[i]) for i in rng.permutation(N)))


def items(rng):
    ids, usage = ids_usage(rng, "q")
    catalog = [f"item{j}" for j in range(40)]
    actual = [list(rng.choice(catalog, rng.integers(1, 4), replace=False)) for _ in range(N)]
    write("mapk_solution.csv", ["id", "items", "Usage"],
          ((i, " ".join(a), u) for i, a, u in zip(ids, actual, usage)))
    for name, right in (("mapk_submission.csv", 0.6), ("mapk_submission_b.csv", 0.4)):
        preds = []
        for a in actual:
            guess = list(rng.choice(catalog, 5, replace=False))
            if rng.random() < right:
                guess.insert(int(rng.integers(0, 3)), a[0])
            preds.append(" ".join(dict.fromkeys(guess[:5])))
        write(name, ["id", "items"], ((ids[i], preds[i]) for i in rng.permutation(N)))


def regression(rng):
    ids, usage = ids_usage(rng, "r")
    y = np.round(np.exp(rng.normal(3, 0.8, N)), 2)        # prices: positive, skewed
    write("rmse_solution.csv", ["id", "price", "Usage"], zip(ids, y, usage), ("rmsle", "mae"))
    for name, spread in (("rmse_submission.csv", 0.25), ("rmse_submission_b.csv", 0.35)):
        p = np.round(y * np.exp(rng.normal(0, spread, N)), 2)
        write(name, ["id", "price"], ((ids[i], p[i]) for i in rng.permutation(N)), ("rmsle", "mae"))
    cols = ["cohesion", "syntax", "vocabulary"]
    t = np.round(rng.uniform(1, 5, (N, 3)) * 2) / 2           # essay scores in half points
    write("mcrmse_solution.csv", ["id"] + cols + ["Usage"],
          ([i] + list(r) + [u] for i, r, u in zip(ids, t.tolist(), usage)))
    for name, spread in (("mcrmse_submission.csv", 0.4), ("mcrmse_submission_b.csv", 0.55)):
        p = np.round(t + rng.normal(0, spread, t.shape), 3)
        write(name, ["id"] + cols, ([ids[i]] + list(p[i]) for i in rng.permutation(N)))


def correlations(rng):
    ids, usage = ids_usage(rng, "c")
    y = np.round(rng.normal(50, 12, N), 2)
    write("pearson_solution.csv", ["id", "yield", "Usage"], zip(ids, y, usage))
    for name, noise in (("pearson_submission.csv", 7.0), ("pearson_submission_b.csv", 11.0)):
        p = np.round(0.02 * (y - 50) + rng.normal(0, noise / 50, N), 4)     # another scale
        write(name, ["id", "yield"], ((ids[i], p[i]) for i in rng.permutation(N)))
    ids, usage = ids_usage(rng, "k")
    t = np.round(rng.gamma(2.0, 1.5, N), 1)                                 # ties
    write("kendall_solution.csv", ["id", "relevance", "Usage"], zip(ids, t, usage))
    for name, noise in (("kendall_submission.csv", 1.0), ("kendall_submission_b.csv", 1.6)):
        p = np.round(np.log1p(t) + rng.normal(0, noise / 3, N), 4)
        write(name, ["id", "relevance"], ((ids[i], p[i]) for i in rng.permutation(N)))
    ids, usage = ids_usage(rng, "s")
    cols = ["question_quality", "answer_helpful", "answer_relevance"]
    latent = rng.normal(0, 1, (N, 3))
    votes = (latent[:, :, None] + rng.normal(0, 0.8, (N, 3, 3)) > 0).sum(axis=2)
    t = np.round(votes / 3, 6)                                              # 0, 1/3, 2/3, 1
    write("spearman_solution.csv", ["id"] + cols + ["Usage"],
          ([i] + list(r) + [u] for i, r, u in zip(ids, t.tolist(), usage)))
    for name, noise in (("spearman_submission.csv", 0.8), ("spearman_submission_b.csv", 1.2)):
        p = np.round(1 / (1 + np.exp(-(latent + rng.normal(0, noise, (N, 3))))), 5)
        write(name, ["id"] + cols, ([ids[i]] + list(p[i]) for i in rng.permutation(N)))


def mcc_labels(rng):
    ids, usage = ids_usage(rng, "l")
    names = ["low", "mid", "high"]
    y = rng.choice(3, N, p=[0.5, 0.3, 0.2])
    write("mcc_solution.csv", ["id", "risk", "Usage"], ((i, names[c], u) for i, c, u in
                                                        zip(ids, y, usage)))
    for name, right in (("mcc_submission.csv", 0.8), ("mcc_submission_b.csv", 0.7)):
        pred = np.where(rng.random(N) < right, y, np.clip(y + rng.choice([-1, 1], N), 0, 2))
        write(name, ["id", "risk"], ((ids[i], names[pred[i]]) for i in rng.permutation(N)))


def sales(rng):
    ids, usage = ids_usage(rng, "d")
    y = np.where(rng.random(N) < 0.1, 0, np.round(rng.gamma(2.0, 20.0, N)))
    write("smape_solution.csv", ["id", "sales", "Usage"], zip(ids, y, usage))
    for name, spread in (("smape_submission.csv", 0.25), ("smape_submission_b.csv", 0.45)):
        p = np.round(np.maximum(y * np.exp(rng.normal(0, spread, N)) + rng.normal(0, 2, N), 0), 1)
        write(name, ["id", "sales"], ((ids[i], p[i]) for i in rng.permutation(N)))
    ids, usage = ids_usage(rng, "g")
    y = np.round(rng.gamma(3.0, 30.0, N) + 5, 1)          # MAPE: no zero in the truth
    write("mape_solution.csv", ["id", "revenue", "Usage"], zip(ids, y, usage))
    for name, spread in (("mape_submission.csv", 0.15), ("mape_submission_b.csv", 0.25)):
        p = np.round(y * np.exp(rng.normal(0, spread, N)), 1)
        write(name, ["id", "revenue"], ((ids[i], p[i]) for i in rng.permutation(N)))


def ranked(rng):
    ids, usage = ids_usage(rng, "n")
    places = [f"city{j}" for j in range(25)]
    actual = [list(rng.choice(places, rng.integers(1, 3), replace=False)) for _ in range(N)]
    write("ndcg_solution.csv", ["id", "places", "Usage"],
          ((i, " ".join(a), u) for i, a, u in zip(ids, actual, usage)))
    for name, right in (("ndcg_submission.csv", 0.7), ("ndcg_submission_b.csv", 0.5)):
        preds = []
        for a in actual:
            guess = [g for g in rng.choice(places, 6, replace=False) if g not in a]
            for item in a:
                if rng.random() < right:
                    guess.insert(int(rng.integers(0, 4)), item)
            preds.append(" ".join(guess[:5]))
        write(name, ["id", "places"], ((ids[i], preds[i]) for i in rng.permutation(N)))


WORDS = ("happy sad love hate great awful good bad fun boring amazing terrible nice "
         "angry lovely tired excited bored glad upset").split()
FILLER = ("the a my this that day today work home movie game weather food friends "
          "morning night school so really just is was").split()


def texts(rng):
    ids, usage = ids_usage(rng, "w")
    tweets, chosen = [], []
    for _ in range(N):
        words = list(rng.choice(FILLER, rng.integers(4, 10)))
        at = int(rng.integers(0, len(words)))
        key = list(rng.choice(WORDS, rng.integers(1, 3), replace=False))
        words[at:at] = key
        tweets.append(words)
        chosen.append(" ".join(key if rng.random() < 0.7 else words))
    write("jaccard_words_solution.csv", ["textID", "selected_text", "Usage"],
          zip(ids, chosen, usage))
    for name, right in (("jaccard_words_submission.csv", 0.7),
                        ("jaccard_words_submission_b.csv", 0.45)):
        out = []
        for words, c in zip(tweets, chosen):
            r = rng.random()
            out.append(c if r < right else " ".join(words) if r < right + 0.2
                       else " ".join(words[:int(rng.integers(1, len(words) + 1))]))
        write(name, ["textID", "selected_text"], ((ids[i], out[i]) for i in rng.permutation(N)))
    ids, usage = ids_usage(rng, "t")
    truth = [" ".join(rng.choice(WORDS + FILLER, rng.integers(1, 4))) for _ in range(N)]
    write("levenshtein_solution.csv", ["id", "text", "Usage"], zip(ids, truth, usage))
    letters = list("abcdefghijklmnopqrstuvwxyz ")
    for name, typo in (("levenshtein_submission.csv", 0.04), ("levenshtein_submission_b.csv", 0.1)):
        out = []
        for t in truth:
            chars = [c if rng.random() > typo else str(rng.choice(letters)) for c in t]
            if rng.random() < typo * 3:
                chars = chars[:-1]
            out.append("".join(chars))
        write(name, ["id", "text"], ((ids[i], out[i]) for i in rng.permutation(N)))


VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]


def votes(rng):
    ids, usage = ids_usage(rng, "e")
    alpha = rng.dirichlet(np.ones(6) * 0.6, N)
    counts = np.stack([rng.multinomial(k, a) for k, a in zip(rng.integers(3, 16, N), alpha)])
    frac = counts / counts.sum(axis=1, keepdims=True)
    write("kl_divergence_solution.csv", ["eeg_id"] + VOTES + ["Usage"],
          ([i] + [repr(float(v)) for v in r] + [u] for i, r, u in zip(ids, frac, usage)))
    for name, sharp in (("kl_divergence_submission.csv", 1.5), ("kl_divergence_submission_b.csv", 3.0)):
        logits = sharp * np.log(alpha + 0.02) + rng.normal(0, 0.5, alpha.shape)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        write(name, ["eeg_id"] + VOTES, ([ids[i]] + [repr(float(v)) for v in p[i]]
                                          for i in rng.permutation(N)))


def fvc(rng):
    patients = [f"ID{k:05d}" for k in range(80)]
    rows = [(p, w) for p in patients for w in rng.choice(np.arange(-5, 60), 5, replace=False)]
    keys = [f"{p}_{w}" for p, w in rows]
    base = {p: rng.normal(2700, 600) for p in patients}
    slope = {p: rng.normal(-8, 4) for p in patients}
    y = np.round([base[p] + slope[p] * w + rng.normal(0, 120) for p, w in rows])
    usage = np.where(rng.random(len(keys)) < 0.3, "Public", "Private")
    write("laplace_ll_solution.csv", ["Patient_Week", "FVC", "Usage"], zip(keys, y, usage))
    for name, err in (("laplace_ll_submission.csv", 160.0), ("laplace_ll_submission_b.csv", 260.0)):
        e = rng.normal(0, err, len(keys))
        conf = np.round(np.abs(e) * 1.2 + rng.normal(60, 40, len(keys)).clip(0), 1)
        out = [(keys[i], np.round(y[i] + e[i]), conf[i]) for i in rng.permutation(len(keys))]
        write(name, ["Patient_Week", "FVC", "Confidence"], out)


def directions(rng):
    ids, usage = ids_usage(rng, "v")
    az = rng.uniform(0, 2 * np.pi, N)
    zen = np.arccos(rng.uniform(-1, 1, N))
    write("angular_solution.csv", ["event_id", "azimuth", "zenith", "Usage"],
          ((i, f"{a:.6f}", f"{z:.6f}", u) for i, a, z, u in zip(ids, az, zen, usage)))
    for name, spread in (("angular_submission.csv", 0.35), ("angular_submission_b.csv", 0.6)):
        pa = np.mod(az + rng.normal(0, spread, N) / np.maximum(np.sin(zen), 0.2), 2 * np.pi)
        pz = np.clip(zen + rng.normal(0, spread, N), 0, np.pi)
        write(name, ["event_id", "azimuth", "zenith"],
              ((ids[i], f"{pa[i]:.6f}", f"{pz[i]:.6f}") for i in rng.permutation(N)))


if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    binary(rng)
    ids, y, usage = multiclass(rng)
    labels(rng, ids, y, usage)
    items(rng)
    regression(rng)
    binary_labels(rng)
    for make in (correlations, mcc_labels, sales, ranked, texts, votes, fvc, directions):
        make(rng)
