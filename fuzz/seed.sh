#!/usr/bin/env sh
# Seeds each fuzz target's corpus from the repository's own test inputs.
set -eu
cd "$(dirname "$0")"
mkdir -p corpus/policy corpus/fmt corpus/readers corpus/verify
for file in ../tests/ui/check/*.policy ../policies/*.policy ../policies/examples/*.policy; do
  cp "$file" corpus/policy/
  cp "$file" corpus/fmt/
done
# The readers target takes a format byte (0 JSON, 1 YAML, 2 JSON Lines) before the text.
n=0
for file in ../tests/ui/verify/*/* ../tests/scenarios/migration/*.yaml; do
  case "$file" in
    *.json) byte='\000' ;;
    *.yaml) byte='\001' ;;
    *.jsonl) byte='\002' ;;
    *) continue ;;
  esac
  n=$((n + 1))
  { printf "$byte"; cat "$file"; } > "corpus/readers/seed-$n"
done
echo "seeded: $(ls corpus/policy | wc -l) policies, $n trace and plan files"
