"""Type stubs of ctxguard's extension module."""

import os
from typing import Any, Callable, Literal, Mapping, Optional, Sequence, Union, final

from typing_extensions import TypeAlias

__version__: str
__all__ = [
    "Diagnostic",
    "Fleet",
    "InputError",
    "Label",
    "Planned",
    "Policy",
    "Report",
    "__version__",
    "audit",
    "import_session",
    "plan",
    "verify",
]

#: A trace or plan: a path, JSON/YAML text (a ``str`` holding a line break
#: or starting with ``{`` or ``[``), a dict of the document, or a list of
#: its regions.
_Document: TypeAlias = Union[str, "os.PathLike[str]", Mapping[str, Any], Sequence[Mapping[str, Any]]]

class InputError(ValueError):
    """An input could not be used: a trace, plan, session or policy that
    cannot be read. Its text is the report the command line prints."""

    diagnostics: list[Diagnostic]

@final
class Label:
    """A labelled place of a diagnostic."""

    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...
    @property
    def pointer(self) -> Optional[str]: ...
    @property
    def message(self) -> str: ...

@final
class Diagnostic:
    """One finding, as ``--format json`` writes it; ``str()`` draws it as
    the command line does."""

    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> Literal["error", "warning"]: ...
    @property
    def message(self) -> str: ...
    @property
    def commitment(self) -> Optional[str]: ...
    @property
    def region(self) -> Optional[str]: ...
    @property
    def file(self) -> Optional[str]: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def column(self) -> Optional[int]: ...
    @property
    def end_line(self) -> Optional[int]: ...
    @property
    def end_column(self) -> Optional[int]: ...
    @property
    def help(self) -> Optional[str]: ...
    @property
    def notes(self) -> list[str]: ...
    @property
    def labels(self) -> list[Label]: ...
    @property
    def rendered(self) -> str: ...

@final
class Policy:
    """A team policy and the findings of linting it. A policy with errors
    is kept (``usable`` is false, ``diagnostics`` say why) and raises
    ``InputError`` when a call runs under it."""

    @staticmethod
    def from_file(path: Union[str, "os.PathLike[str]"]) -> Policy: ...
    @staticmethod
    def from_str(text: str, name: str = "<policy>") -> Policy: ...
    @staticmethod
    def default() -> Policy: ...
    @property
    def usable(self) -> bool: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def name(self) -> str: ...
    @property
    def window(self) -> Optional[int]: ...

@final
class Report:
    """A verdict or an audit with its findings."""

    @property
    def verdict(self) -> Optional[Literal["compact", "reject", "escalate"]]: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def stats(self) -> Optional[dict[str, Any]]: ...
    @property
    def events(self) -> Optional[list[dict[str, Any]]]: ...
    @property
    def exit_code(self) -> int: ...
    def to_json(self) -> str: ...
    def to_sarif(self) -> str: ...
    def to_github(self) -> str: ...
    def render(self) -> str: ...
    def fleet(self) -> Optional[Fleet]: ...

@final
class Fleet:
    """What compaction did across a fleet of sessions, summed as
    ``ctxguard audit DIR --fleet-report FILE.json`` sums it; fleets merge
    in any order."""

    def __init__(self) -> None: ...
    @staticmethod
    def from_json(text: str) -> Fleet: ...
    def merge(self, other: Fleet) -> None: ...
    def to_json(self, *, redact: bool = False) -> str: ...
    def summary(self, *, redact: bool = False) -> dict[str, Any]: ...
    def to_html(self, *, redact: bool = False) -> str: ...

@final
class Planned:
    """What the reference compactor made of a trace."""

    @property
    def outcome(self) -> Literal["compact", "escalate", "failed"]: ...
    @property
    def plan(self) -> Optional[dict[str, Any]]: ...
    @property
    def plan_json(self) -> Optional[str]: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...

def verify(
    trace: _Document,
    plan: _Document,
    policy: Union[Policy, str, "os.PathLike[str]", None] = None,
    *,
    budget: Optional[int] = None,
    tokenizer: Optional[Literal["o200k_base", "cl100k_base", "approx"]] = None,
    recount: bool = False,
    all_warnings: bool = False,
    deny_warnings: bool = False,
) -> Report:
    """Verifies ``plan`` against ``trace``; the GIL is released meanwhile.
    Raises ``InputError`` when an input cannot be read."""

def plan(
    trace: _Document,
    policy: Union[Policy, str, "os.PathLike[str]", None] = None,
    *,
    summarizer: Optional[Callable[[str], str]] = None,
    budget: Optional[int] = None,
    tokenizer: Optional[Literal["o200k_base", "cl100k_base", "approx"]] = None,
) -> Planned:
    """Compacts ``trace``: commitments kept byte for byte, each run of
    narrative summarized by ``summarizer`` (an exception it raises makes the
    outcome ``failed`` with ``summarizer-failed``)."""

def audit(
    *paths: Union[str, "os.PathLike[str]"],
    policy: Union[str, "os.PathLike[str]", None] = None,
    runtime: Optional[str] = None,
) -> Report:
    """Audits recorded sessions (files, or folders searched for them)."""

def import_session(
    path: Union[str, "os.PathLike[str]"],
    policy: Union[Policy, str, "os.PathLike[str]", None] = None,
    runtime: Optional[str] = None,
) -> list[dict[str, Any]]:
    """Each compaction of one recorded session: ``compaction``, ``trace`` and ``plan``."""
