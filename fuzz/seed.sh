#!/usr/bin/env sh
# Seeds each fuzz target's corpus from the repository's own test inputs.
set -eu
cd "$(dirname "$0")"
mkdir -p corpus/policy corpus/fmt corpus/readers corpus/verify corpus/importers corpus/hooks corpus/settings
for file in ../tests/ui/check/*.policy ../crates/ctxguard-core/policies/*.policy ../policies/examples/*.policy; do
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
# The importers target takes a runtime byte (0 Claude Code, 1 Codex, 2 pi,
# 3 OpenHands, 4 SWE-agent, 5 recognize) before the text: seed each session
# fixture with its own runtime and with recognition.
m=0
for pair in claude-code.jsonl:0 codex.jsonl:1 pi.jsonl:2 openhands-v0.json:3 openhands-v1.jsonl:3 swe-agent.traj:4; do
  file=../tests/fixtures/sessions/${pair%%:*}
  m=$((m + 1))
  { printf "\\00${pair##*:}"; cat "$file"; } > "corpus/importers/seed-$m"
  { printf '\005'; cat "$file"; } > "corpus/importers/auto-$m"
done
# The hooks target takes an event byte (0 UserPromptSubmit, 1 PostToolUse,
# 2 PreCompact, 3 PostCompact, 4 SessionStart) before the payload.
h=0
for file in ../tests/fixtures/hooks/claude-code/*.json; do
  case "$(basename "$file")" in
    UserPromptSubmit*) byte='\000' ;;
    PostToolUse*) byte='\001' ;;
    PreCompact*) byte='\002' ;;
    PostCompact*) byte='\003' ;;
    SessionStart*) byte='\004' ;;
    *) continue ;;
  esac
  h=$((h + 1))
  { printf "$byte"; cat "$file"; } > "corpus/hooks/seed-$h"
done
s=0
for file in $(find ../tests/fixtures/configs -name 'settings*.json'); do
  s=$((s + 1))
  cp "$file" "corpus/settings/seed-$s"
done
echo "seeded: $(ls corpus/policy | wc -l) policies, $n trace and plan files, $m sessions, $h hook payloads, $s settings files"
