"""``mt.random``: random tensors, generated chunk by chunk.

Every random tensor holds an integer ``seed``, drawn from the ``RandomState`` that made it
(the module's global one for ``mt.random.rand`` and friends), so ``mt.random.seed(s)`` or
``mt.random.RandomState(s)`` make a whole script reproducible. Chunk ``i`` (its flat index
in the chunk grid, C order) draws from its own stream::

    np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i,))))

``SeedSequence`` spawning is NumPy's documented way to derive independent streams from one
seed: the chunks are statistically independent, and the same seed with the same chunk
layout always gives the same numbers, whatever the order or the thread the chunks run in.
(A different chunk layout gives different, equally valid, numbers.) Each chunk is one
call of the matching ``numpy.random.Generator`` method, e.g. ``Generator.random`` for
``rand``, ``Generator.integers`` for ``randint`` (``high`` exclusive, as ``randint``).

Distribution parameters may be scalars, arrays or tensors; they broadcast against each
other and against ``size`` as in NumPy, and tensor parameters are rechunked to the
output's chunks. Scalar and array parameters are checked when the function is called
(NumPy's own errors, e.g. ``scale < 0``); tensor parameters only when the chunks run.

Modules: ``streams`` (seeds, the per-chunk generators), ``distributions`` (the
``RandomChunks`` operator, the generic sampler and the distribution table),
``multivariate`` (dirichlet, multinomial, multivariate_normal: each draw a vector along a
trailing axis of one chunk), ``sampling`` (choice, permutation, shuffle), ``state``
(``RandomState`` and the global state whose bound methods are the functions below),
``gpu_draws`` (``gpu=True``: each chunk drawn by CuPy's generators from the same stream;
reproducible, but not NumPy's numbers).

``random_integers`` is NumPy's deprecated alias of ``randint(low, high + 1)``, with its
``DeprecationWarning``; ``bytes`` returns Python ``bytes`` at once (as NumPy and Mars),
drawn from the seed source; ``RandomStateField`` is the type of the seed a random
operator holds (``streams.py``).
"""

from jupyter_mars.tensor.random.distributions import RandomChunks as RandomChunks
from jupyter_mars.tensor.random.distributions import random_chunk as random_chunk
from jupyter_mars.tensor.random.sampling import Choice as Choice
from jupyter_mars.tensor.random.sampling import Permutation as Permutation
from jupyter_mars.tensor.random.sampling import choice_chunk as choice_chunk
from jupyter_mars.tensor.random.sampling import draw_permutation as draw_permutation
from jupyter_mars.tensor.random.sampling import (
    draw_without_replacement as draw_without_replacement,
)
from jupyter_mars.tensor.random.sampling import gather as gather
from jupyter_mars.tensor.random.sampling import perm_slice as perm_slice
from jupyter_mars.tensor.random.sampling import take_indices as take_indices
from jupyter_mars.tensor.random.sampling import take_rows as take_rows
from jupyter_mars.tensor.random.state import RandomState, get_state, seed, set_state
from jupyter_mars.tensor.random.state import global_state as _global_state
from jupyter_mars.tensor.random.streams import RandomStateField
from jupyter_mars.tensor.random.streams import chunk_generator as chunk_generator

# ---- the module-level API: methods of one global RandomState --------------------------------

rand = _global_state.rand
randn = _global_state.randn
randint = _global_state.randint
random_sample = _global_state.random_sample
random = _global_state.random
ranf = _global_state.ranf
sample = _global_state.sample
standard_normal = _global_state.standard_normal
standard_exponential = _global_state.standard_exponential
standard_gamma = _global_state.standard_gamma
choice = _global_state.choice
permutation = _global_state.permutation
shuffle = _global_state.shuffle
uniform = _global_state.uniform
normal = _global_state.normal
exponential = _global_state.exponential
poisson = _global_state.poisson
binomial = _global_state.binomial
negative_binomial = _global_state.negative_binomial
geometric = _global_state.geometric
beta = _global_state.beta
gamma = _global_state.gamma
lognormal = _global_state.lognormal
laplace = _global_state.laplace
logistic = _global_state.logistic
gumbel = _global_state.gumbel
chisquare = _global_state.chisquare
standard_t = _global_state.standard_t
standard_cauchy = _global_state.standard_cauchy
pareto = _global_state.pareto
weibull = _global_state.weibull
power = _global_state.power
rayleigh = _global_state.rayleigh
triangular = _global_state.triangular
f = _global_state.f
wald = _global_state.wald
vonmises = _global_state.vonmises
zipf = _global_state.zipf
logseries = _global_state.logseries
hypergeometric = _global_state.hypergeometric
noncentral_chisquare = _global_state.noncentral_chisquare
noncentral_f = _global_state.noncentral_f
dirichlet = _global_state.dirichlet
multinomial = _global_state.multinomial
multivariate_normal = _global_state.multivariate_normal
random_integers = _global_state.random_integers
bytes = _global_state.bytes

__all__ = [
    "RandomState",
    "RandomStateField",
    "beta",
    "binomial",
    "bytes",
    "chisquare",
    "choice",
    "dirichlet",
    "exponential",
    "f",
    "gamma",
    "geometric",
    "get_state",
    "gumbel",
    "hypergeometric",
    "laplace",
    "logistic",
    "lognormal",
    "logseries",
    "multinomial",
    "multivariate_normal",
    "negative_binomial",
    "noncentral_chisquare",
    "noncentral_f",
    "normal",
    "pareto",
    "permutation",
    "poisson",
    "power",
    "rand",
    "randint",
    "randn",
    "random",
    "random_integers",
    "random_sample",
    "ranf",
    "rayleigh",
    "sample",
    "seed",
    "set_state",
    "shuffle",
    "standard_cauchy",
    "standard_exponential",
    "standard_gamma",
    "standard_normal",
    "standard_t",
    "triangular",
    "uniform",
    "vonmises",
    "wald",
    "weibull",
    "zipf",
]
