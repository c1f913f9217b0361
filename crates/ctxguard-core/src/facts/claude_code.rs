//! Claude Code, version by version. Each hook event's first version was
//! read off the client itself (the event list every release carries, 117
//! releases from 1.0.0 to 2.1.332 bisected); what a version does with a
//! settings file or a hook's output was seen by running it
//! (`tests/runtimes`), and where a behaviour changed between the versions
//! the tests run, the releases between were bisected the same way (2.1.89,
//! 2.1.97, 2.1.101, 2.1.105).

use super::Version;

/// Every hook event and the first version that knows it, in the order
/// the client lists them (which no release has changed).
pub const EVENTS: &[(&str, &str)] = &[
    ("PreToolUse", "1.0.23"),
    ("PostToolUse", "1.0.23"),
    ("PostToolUseFailure", "2.0.56"),
    ("PostToolBatch", "2.1.118"),
    ("Notification", "1.0.23"),
    ("UserPromptSubmit", "1.0.53"),
    ("UserPromptExpansion", "2.1.116"),
    ("SessionStart", "1.0.62"),
    ("SessionEnd", "1.0.85"),
    ("Stop", "1.0.31"),
    ("StopFailure", "2.1.78"),
    ("SubagentStart", "2.0.44"),
    ("SubagentStop", "1.0.41"),
    ("PreCompact", "1.0.48"),
    ("PostCompact", "2.1.76"),
    ("PreModelSwitch", "2.1.251"),
    ("PostModelSwitch", "2.1.251"),
    ("PermissionRequest", "2.0.45"),
    ("PermissionDenied", "2.1.88"),
    ("Setup", "2.1.10"),
    ("TeammateIdle", "2.1.33"),
    ("TaskCreated", "2.1.84"),
    ("TaskCompleted", "2.1.33"),
    ("Elicitation", "2.1.63"),
    ("ElicitationResult", "2.1.63"),
    ("ConfigChange", "2.1.48"),
    ("WorktreeCreate", "2.1.50"),
    ("WorktreeRemove", "2.1.50"),
    ("InstructionsLoaded", "2.1.69"),
    ("CwdChanged", "2.1.83"),
    ("FileChanged", "2.1.83"),
    ("DirectoryAdded", "2.1.219"),
    ("MessageDisplay", "2.1.152"),
    ("PreSkillShellCommand", "2.1.332"),
];

/// The first version that runs `PostCompact` hooks.
pub const POST_COMPACT_SINCE: &str = "2.1.76";

/// The first version whose PreCompact hooks can refuse a compaction.
pub const BLOCKING_SINCE: &str = "2.1.105";

/// The first version that skips only the entry of a hook event it does not
/// know; every earlier one drops every hook of that settings file, saying
/// nothing.
pub const SKIPS_UNKNOWN_EVENT_SINCE: &str = "2.1.101";

/// The first version that replaces a hook's output string longer than
/// [`OUTPUT_CAP`] with a preview and a path; every earlier one passes it
/// whole.
pub const OUTPUT_CAP_SINCE: &str = "2.1.89";

/// The most a hook's output string may hold and still reach the model
/// whole, counted as JavaScript counts a string's length: in UTF-16 code
/// units, so an emoji counts two (seen on 2.1.105 and 2.1.332: 4,990 emoji
/// pass, 5,000 are cut).
pub const OUTPUT_CAP: usize = 10_000;

/// The first version that keeps a SessionStart hook's context in the
/// transcript (a `hook_additional_context` attachment), so a resumed
/// session still has it; every earlier one holds it only in the memory of
/// the process that compacted.
pub const CONTEXT_KEPT_SINCE: &str = "2.1.97";

/// The first version ctxguard's guard can run on: the one that brought
/// `SessionStart`, through which commitments are given back.
pub const GUARD_SINCE: &str = "1.0.62";

/// Whether `event` is an event of some version.
pub fn is_event(event: &str) -> bool {
    EVENTS.iter().any(|(name, _)| *name == event)
}

/// The first version that knows `event`.
pub fn since(event: &str) -> Option<&'static str> {
    EVENTS
        .iter()
        .find(|(name, _)| *name == event)
        .map(|(_, since)| *since)
}

/// Whether `version` knows `event`.
pub fn knows(version: &Version, event: &str) -> bool {
    since(event).is_some_and(|since| version.at_least(since))
}

/// The events `version` knows, in the client's own order.
pub fn events(version: &Version) -> Vec<&'static str> {
    EVENTS
        .iter()
        .filter(|(_, since)| version.at_least(since))
        .map(|(name, _)| *name)
        .collect()
}

/// Whether `version` drops every hook of a settings file that names an
/// event it does not know.
pub fn drops_file_on_unknown_event(version: &Version) -> bool {
    !version.at_least(SKIPS_UNKNOWN_EVENT_SINCE)
}

/// Whether `version` runs PostCompact hooks.
pub fn has_post_compact(version: &Version) -> bool {
    version.at_least(POST_COMPACT_SINCE)
}

/// Whether `version` cuts a hook's output longer than [`OUTPUT_CAP`].
pub fn caps_output(version: &Version) -> bool {
    version.at_least(OUTPUT_CAP_SINCE)
}

/// Whether `version` keeps a SessionStart hook's context in the
/// transcript.
pub fn keeps_context(version: &Version) -> bool {
    version.at_least(CONTEXT_KEPT_SINCE)
}

/// The length `text` has where Claude Code caps a hook's output: UTF-16
/// code units.
pub fn output_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// Whether `version` honours a PreCompact hook's refusal.
pub fn can_refuse(version: &Version) -> bool {
    version.at_least(BLOCKING_SINCE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        Version::parse(text).unwrap()
    }

    #[test]
    fn each_version_knows_the_events_it_brought_and_every_older_one() {
        assert_eq!(events(&v("2.0.76")).len(), 12);
        assert_eq!(events(&v("2.1.76")).len(), 22);
        assert_eq!(events(&v("2.1.105")).len(), 27);
        assert_eq!(events(&v("2.1.332")).len(), 34);
        assert!(!knows(&v("2.1.75"), "PostCompact"));
        assert!(knows(&v("2.1.76"), "PostCompact"));
        assert!(!knows(&v("2.1.332"), "PreCompaction"));
    }

    #[test]
    fn an_unknown_event_drops_the_file_before_2_1_101() {
        assert!(drops_file_on_unknown_event(&v("2.0.76")));
        assert!(drops_file_on_unknown_event(&v("2.1.100")));
        assert!(!drops_file_on_unknown_event(&v("2.1.101")));
    }
}
