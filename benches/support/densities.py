#!/usr/bin/env python3
"""How often the text of real sessions holds what `verify` reads for, beside
the benchmark's generated narrative: the share of messages (regions) with a
path, a command in backticks or after `$`, a number, a word of the default
policy's hints, and a character beyond ASCII; and their mean length.

    python3 benches/support/densities.py tests/corpus target/bench-data/100000/trace.jsonl

A folder is searched for Claude Code and pi session files (`*.jsonl`); a
file named `trace.jsonl` is read as a ctxguard trace (its narrative regions).
"""
import json
import pathlib
import re
import sys

PATH = re.compile(r"[\w.-]+/[\w./-]+")
COMMAND = re.compile(r"`[^`\n]+`|^\$ ", re.M)
NUMBER = re.compile(r"\d")
HINT = re.compile(
    r"\b(must|must not|never|always|do not|don't|shall not|we decided|decided to|go with|"
    r"confirmed|is set to|first|before|after|then)\b",
    re.I,
)


def texts_of_session(path):
    for line in path.open(encoding="utf-8", errors="replace"):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        message = record.get("message")
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        if isinstance(content, str):
            yield content
        elif isinstance(content, list):
            for block in content:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text":
                    yield block.get("text") or ""
                elif block.get("type") in ("tool_result", "toolResult"):
                    inner = block.get("content")
                    if isinstance(inner, str):
                        yield inner
                    elif isinstance(inner, list):
                        yield "\n".join(
                            b.get("text") or "" for b in inner if isinstance(b, dict)
                        )


def texts_of_trace(path):
    for line in path.open(encoding="utf-8"):
        region = json.loads(line)
        if region.get("kind") == "narrative":
            yield region.get("text") or ""


def densities(texts):
    n = size = 0
    counts = dict.fromkeys(("path", "command", "number", "hint", "beyond ASCII"), 0)
    for text in texts:
        if not text.strip():
            continue
        n += 1
        size += len(text.encode("utf-8"))
        counts["path"] += bool(PATH.search(text))
        counts["command"] += bool(COMMAND.search(text))
        counts["number"] += bool(NUMBER.search(text))
        counts["hint"] += bool(HINT.search(text))
        counts["beyond ASCII"] += not text.isascii()
    return n, size, counts


def main(args):
    print("| source | texts | mean bytes | path | command | number | hint word | beyond ASCII |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for arg in args:
        path = pathlib.Path(arg)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*.jsonl") if p.name != "trace.jsonl")
            texts = (t for f in files for t in texts_of_session(f))
        else:
            texts = texts_of_trace(path)
        n, size, counts = densities(texts)
        if n == 0:
            continue
        shares = " | ".join(f"{counts[k] / n:.0%}" for k in counts)
        print(f"| {arg} | {n} | {size // n} | {shares} |")


if __name__ == "__main__":
    main(sys.argv[1:])
