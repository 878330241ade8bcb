"""Metrics, as scikit-learn's ``sklearn.metrics``, on tensors."""
