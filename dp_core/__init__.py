"""dp_core: the mechanism and accounting math of DP Explorer (numpy/pandas only).

One module per concept; this package re-exports their public names.
"""

from dp_core.attacks import *  # noqa: F403
from dp_core.bounding import *  # noqa: F403
from dp_core.bounding.bias import *  # noqa: F403
from dp_core.bounding.error import *  # noqa: F403
from dp_core.bounding.noise import *  # noqa: F403
from dp_core.bounding.search import *  # noqa: F403
from dp_core.bounding.spread import *  # noqa: F403
from dp_core.bounding.table import *  # noqa: F403
from dp_core.composition import *  # noqa: F403
from dp_core.exponential import *  # noqa: F403
from dp_core.gaussian import *  # noqa: F403
from dp_core.group_budgets import *  # noqa: F403
from dp_core.laplace import *  # noqa: F403
from dp_core.local_estimation import *  # noqa: F403
from dp_core.noisy_max import *  # noqa: F403
from dp_core.permute_and_flip import *  # noqa: F403
from dp_core.queries import *  # noqa: F403
from dp_core.randomized_response import *  # noqa: F403
from dp_core.selection import *  # noqa: F403
from dp_core.selection_scores import *  # noqa: F403
from dp_core.sensitivity import *  # noqa: F403
from dp_core.unary_encoding import *  # noqa: F403
from dp_core.validation import *  # noqa: F403
