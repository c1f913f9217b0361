// ctxguard's guard for pi, installed by `ctxguard init pi`: each event
// calls the ctxguard binary as a hook, with the payload Claude Code's
// hooks get, and acts on its answer. What ctxguard says to the user is
// shown in pi's interface, or on standard error in print mode.
//
// - before_agent_start: the prompt's commitments are recorded; after a
//   compaction, the active commitments are given back to the model, word
//   for word, as a message of their own.
// - session_before_compact: the ledger is brought level with the session
//   and snapshotted; a compaction the commitments cannot survive is
//   cancelled, and the user told why.
// - session_compact: the summary is checked against every active
//   commitment, and the user told what it lost, altered or invented.
import { spawnSync } from "node:child_process";

const COMMAND = "ctxguard";
const ARGS: string[] = [];

type Answer = { status: number | null; stdout: string; stderr: string };

function hook(event: string, payload: Record<string, unknown>): Answer {
  const run = spawnSync(COMMAND, ["hook", "pi", event, ...ARGS], {
    input: JSON.stringify({ hook_event_name: event, ...payload }),
    encoding: "utf8",
    timeout: 60_000,
  });
  if (run.error) {
    return {
      status: null,
      stdout: "",
      stderr: `ctxguard could not run (${run.error.message}): is it on the PATH?`,
    };
  }
  return { status: run.status, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
}

function parsed(answer: Answer): any {
  try {
    return answer.stdout.trim() ? JSON.parse(answer.stdout) : {};
  } catch {
    return {};
  }
}

function tell(ctx: any, text: string, level: "info" | "warning" | "error") {
  const said = text.trim();
  if (!said) return;
  try {
    if (ctx.hasUI) return ctx.ui.notify(said, level);
  } catch {
    // A context pi has retired (the run is ending): standard error.
  }
  process.stderr.write(`${said}\n`);
}

// The session the hooks are called for, as last seen: a compaction that
// runs as a print-mode run ends gets a context pi has already retired.
let session: Record<string, unknown> = {};

function base(ctx: any): Record<string, unknown> {
  try {
    session = {
      session_id: ctx.sessionManager.getSessionId(),
      transcript_path: ctx.sessionManager.getSessionFile() ?? null,
      cwd: ctx.cwd,
    };
  } catch {
    // Retired: the session last seen.
  }
  return session;
}

export default function (pi: any) {
  // The commitments to give back at the next turn, after a compaction.
  let giveBack: string | undefined;
  // A process that starts on a session compacted by another one (`pi -c`)
  // asks once whether the commitments were given back since.
  let asked = false;

  pi.on("before_agent_start", async (event: any, ctx: any) => {
    const answer = hook("UserPromptSubmit", { ...base(ctx), prompt: event.prompt });
    const reply = parsed(answer);
    if (reply.systemMessage) tell(ctx, reply.systemMessage, "warning");
    if (!asked && !giveBack) {
      const resumed = parsed(hook("SessionStart", { ...base(ctx), source: "resume" }));
      giveBack = resumed.hookSpecificOutput?.additionalContext;
    }
    asked = true;
    if (!giveBack) return;
    const content = giveBack;
    giveBack = undefined;
    return { message: { customType: "ctxguard", content, display: false } };
  });

  pi.on("session_before_compact", async (_event: any, ctx: any) => {
    const answer = hook("PreCompact", { ...base(ctx), trigger: "auto" });
    if (answer.status === 0) return;
    // A guard that cannot decide refuses, and says why.
    tell(ctx, answer.stderr || "ctxguard refused this compaction", "error");
    return { cancel: true };
  });

  pi.on("session_compact", async (event: any, ctx: any) => {
    const summary = event.compactionEntry?.summary ?? "";
    const checked = hook("PostCompact", {
      ...base(ctx),
      trigger: "auto",
      compact_summary: summary,
    });
    if (checked.status !== 0) tell(ctx, checked.stderr, "warning");
    const start = hook("SessionStart", { ...base(ctx), source: "compact" });
    const reply = parsed(start);
    giveBack = reply.hookSpecificOutput?.additionalContext;
    if (reply.systemMessage) tell(ctx, reply.systemMessage, "warning");
  });
}
