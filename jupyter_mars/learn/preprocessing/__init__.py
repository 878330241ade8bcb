"""Scaling, normalising and encoding, as ``sklearn.preprocessing``.

``MinMaxScaler`` and ``minmax_scale`` (``minmax.py``), ``StandardScaler``
(``standard.py``), ``normalize`` (``normalize.py``), ``LabelEncoder``
(``label_encoder.py``), ``LabelBinarizer`` and ``label_binarize``
(``label_binarizer.py``). The scalers' statistics come from chunk-wise reductions whose
small results are fetched; every transform is lazy. ``inputs.py`` holds the checks the
scalers share, ``targets.py`` what the label encoders read of their labels.
"""

from jupyter_mars.learn.preprocessing.label_binarizer import LabelBinarizer, label_binarize
from jupyter_mars.learn.preprocessing.label_encoder import LabelEncoder
from jupyter_mars.learn.preprocessing.minmax import MinMaxScaler, minmax_scale
from jupyter_mars.learn.preprocessing.normalize import normalize
from jupyter_mars.learn.preprocessing.standard import StandardScaler

__all__ = [
    "LabelBinarizer",
    "LabelEncoder",
    "MinMaxScaler",
    "StandardScaler",
    "label_binarize",
    "minmax_scale",
    "normalize",
]
