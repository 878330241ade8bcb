"""Semi-supervised learning on tensors and frames, as ``sklearn.semi_supervised``:
``LabelPropagation``."""

from jupyter_mars.learn.semi_supervised.label_propagation import LabelPropagation

__all__ = ["LabelPropagation"]
