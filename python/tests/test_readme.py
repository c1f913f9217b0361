"""The README's Python example runs as written, from the repository's root
(its paths are the repository's own files), and says what it claims."""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_example_runs_as_written(monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", readme, flags=re.S | re.M)
    assert len(blocks) == 1, "one Python example in the README"
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), scope)
    assert scope["policy"].usable
    assert scope["report"].verdict == "reject"
    assert scope["planned"].outcome == "compact"
    assert os.getcwd() == str(ROOT)
