"""The Python example of the documentation (docs/python.md) runs as written, from the repository's root
(its paths are the repository's own files), and says what it claims."""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_example_runs_as_written(monkeypatch):
    readme = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", readme, flags=re.S | re.M)
    assert len(blocks) == 1, "one Python example in docs/python.md"
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    exec(compile(blocks[0], "docs/python.md", "exec"), scope)
    assert scope["policy"].usable
    assert scope["report"].verdict == "reject"
    assert scope["planned"].outcome == "compact"
    assert os.getcwd() == str(ROOT)
