#!/usr/bin/env python3
"""OpenAI's Python tiktoken on the texts `cargo bench --bench tokenizers`
wrote, printed as rows of the same table. Rank files are read from disk (the
tiktoken-rs crate's assets), checked against tiktoken's own hashes."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "fixtures"))
from make_token_counts import encoding  # noqa: E402


def main() -> None:
    texts, assets = Path(sys.argv[1]), Path(sys.argv[2])
    encodings = {name: encoding(name, assets) for name in ("o200k_base", "cl100k_base")}
    order = sorted(texts.glob("*.txt"), key=lambda p: (not p.stem.startswith("agent"), p.stem.endswith("1000k"), p.stem))
    for path in order:
        text = path.read_text(encoding="utf-8")
        for name, enc in encodings.items():
            best, tokens = float("inf"), 0
            for _ in range(3):
                start = time.perf_counter()
                tokens = len(enc.encode_ordinary(text))
                best = min(best, time.perf_counter() - start)
            mb = len(text.encode()) / 1e6
            print(f"| {path.stem} | Python tiktoken {name} | {mb:.2f} | {tokens} | {best * 1e3:.1f} | {tokens / best / 1e6:.1f} | {mb / best:.0f} |")


if __name__ == "__main__":
    main()
