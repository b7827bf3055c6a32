"""kmetric_gui: a desktop analyzer for Kaggle evaluation metrics."""

__version__ = "0.2.0"
