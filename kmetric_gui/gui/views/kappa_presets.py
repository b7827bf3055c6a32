"""The thirteen confusion-matrix scenarios of seed 000 (titles and matrices)."""
PRESETS = [
    ("Uniform, Balanced, Perfect predict",
     [[100, 0, 0, 0], [0, 100, 0, 0], [0, 0, 100, 0], [0, 0, 0, 100]]),
    ("Balanced, Random Prediction",
     [[25, 25, 25, 25], [25, 25, 25, 25], [25, 25, 25, 25], [25, 25, 25, 25]]),
    ("Non-Balanced, Perfect Prediction",
     [[400, 0, 0, 0], [0, 300, 0, 0], [0, 0, 200, 0], [0, 0, 0, 100]]),
    ("Non-Balanced, Preserved Class Distribution, Random Prediction",
     [[100, 100, 100, 100], [75, 75, 75, 75], [50, 50, 50, 50], [25, 25, 25, 25]]),
    ("Preference for Middle Classes",
     [[200, 200, 0, 0], [0, 200, 100, 0], [0, 50, 150, 0], [0, 0, 50, 50]]),
    ("Predicting Near Borders",
     [[400, 0, 0, 0], [200, 100, 0, 0], [0, 0, 65, 135], [0, 0, 0, 50]]),
    ("Rare Class Bad Prediction",
     [[400, 0, 0, 0], [0, 300, 0, 0], [0, 0, 200, 0], [10, 15, 25, 50]]),
    ("Common Class Bad Prediction",
     [[200, 100, 60, 40], [0, 300, 0, 0], [0, 0, 200, 0], [0, 0, 0, 100]]),
    ("Common Class Large Index Error",
     [[200, 25, 25, 150], [0, 300, 0, 0], [0, 0, 200, 0], [0, 0, 0, 100]]),
    ("Common Class Small Index Error",
     [[200, 150, 25, 25], [0, 300, 0, 0], [0, 0, 200, 0], [0, 0, 0, 100]]),
    ("Rare Class Large Index Error",
     [[400, 0, 0, 0], [0, 300, 0, 0], [0, 0, 200, 0], [40, 5, 5, 50]]),
    ("Rare Class Small Index Error",
     [[400, 0, 0, 0], [0, 300, 0, 0], [0, 0, 200, 0], [5, 5, 40, 50]]),
    ("Some Errors in All Classes",
     [[300, 50, 30, 20], [30, 225, 30, 15], [10, 20, 150, 20], [2, 5, 5, 38]]),
]

# Seed 003's reading of kappa values: a convention, not a property of the metric.
def agreement_band(k):
    """Seed 003's words for a kappa value (bands are conventions)."""
    if k != k:  # nan
        return "undefined"
    if k <= -1.0:
        return "complete disagreement"
    if k < 0:
        return "less than chance agreement"
    if k == 0:
        return "agreement by chance"
    if k >= 1.0:
        return "complete agreement"
    for edge, name in ((0.2, "poor"), (0.4, "moderate"), (0.6, "good"), (0.8, "very good")):
        if k < edge:
            return f"{name} agreement"
    return "perfect agreement (0.8-1)"


MATRICES = [  # key, title, diverging
    ("observed", "O — observed counts", False),
    ("weights", "W — weights", False),
    ("expected", "E — expected by chance", False),
    ("numerator_matrix", "W·O — numerator", False),
    ("denominator_matrix", "W·E — denominator", False),
    ("e_minus_perfect", "E − E(perfect prediction)", True),
]


def matrix_of(result, key):
    if key == "e_minus_perfect":
        return result.expected - result.perfect_expected
    return getattr(result, key)
