// ctxguard's guard for OpenClaw, installed by `ctxguard init openclaw`.
// OpenClaw's compaction hooks only observe, and see no summary; what does
// see it is the run that follows: before each prompt is built, this plugin
// calls the ctxguard binary as a hook with the run's messages, which hold
// the compaction's summary (`compactionSummary`) once there was one.
//
// - BeforeModel: a summary among the messages is checked against every
//   active commitment, the first time it is seen, and the user told what
//   it lost, altered or invented; while it stands, the active commitments
//   are put before each prompt, word for word (OpenClaw does not keep that
//   context, so it is given anew each turn, never twice).
// - UserPromptSubmit: the prompt's commitments are recorded.
//
// OpenClaw's own runs (the memory flush before a compaction) are not the
// user's and are passed over.
import { spawnSync } from "node:child_process";

const COMMAND = "ctxguard";
const ARGS = [];

function hook(event, payload) {
  const run = spawnSync(COMMAND, ["hook", "openclaw", event, ...ARGS], {
    input: JSON.stringify({ hook_event_name: event, ...payload }),
    encoding: "utf8",
    timeout: 30_000,
  });
  if (run.error) {
    process.stderr.write(`ctxguard could not run (${run.error.message}): is it on the PATH?\n`);
    return {};
  }
  try {
    return run.stdout && run.stdout.trim() ? JSON.parse(run.stdout) : {};
  } catch {
    return {};
  }
}

function tell(answer) {
  const said = typeof answer.systemMessage === "string" ? answer.systemMessage.trim() : "";
  if (said) process.stderr.write(`${said}\n`);
}

export default {
  id: "ctxguard",
  name: "ctxguard",
  description: "Commitments kept through compaction.",
  register(api) {
    api.on("before_prompt_build", (event, ctx) => {
      const session = ctx?.sessionId;
      if (!session || String(ctx?.sessionKey ?? "").includes(":internal-")) return undefined;
      const base = { session_id: session, cwd: ctx?.workspaceDir ?? process.cwd() };
      // The summary first: what is typed now is not the summary's to keep.
      const back = hook("BeforeModel", { ...base, messages: event?.messages ?? [] });
      tell(back);
      if (typeof event?.prompt === "string") {
        tell(hook("UserPromptSubmit", { ...base, prompt: event.prompt }));
      }
      const context = back?.hookSpecificOutput?.additionalContext;
      return typeof context === "string" && context ? { prependContext: context } : undefined;
    });
  },
};
