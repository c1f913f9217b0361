"""ctxguard in-process: verify a compaction plan against its trace, compact
with the reference compactor, and audit recorded sessions, with the same
verdicts and diagnostics as the ``ctxguard`` command line.

>>> import ctxguard
>>> report = ctxguard.verify("trace.yaml", "plan.yaml")   # doctest: +SKIP
>>> report.verdict                                        # doctest: +SKIP
'compact'
"""

from ._ctxguard import *  # noqa: F403 - the extension module is the API
from ._ctxguard import __all__ as __all__
