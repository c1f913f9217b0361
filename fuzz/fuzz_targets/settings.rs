//! Any text as a Claude Code `settings.json`, through the editor `init`
//! uses (a dry run: nothing is written but the input): refused with a
//! diagnostic, or merged into a text that is strict JSON, holds every hook
//! of ctxguard's, and is a fixed point (merging again changes nothing).
#![no_main]

use libfuzzer_sys::fuzz_target;

fn request(project: &std::path::Path) -> ctxguard::init::Request {
    ctxguard::init::Request {
        runtime: ctxguard::hook::Guarded::ClaudeCode,
        scope: ctxguard::init::Scope::Project,
        project: project.to_path_buf(),
        config_dir: None,
        command: "ctxguard".to_owned(),
        policy: None,
        claude_version: None,
        remove: false,
        dry_run: true,
        access: ctxguard::Access::default(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let project =
        std::env::temp_dir().join(format!("ctxguard-fuzz-settings-{}", std::process::id()));
    let settings = project.join(".claude").join("settings.json");
    std::fs::create_dir_all(settings.parent().expect("a folder")).expect("a folder");
    std::fs::write(&settings, text).expect("written");
    let Ok(installed) = ctxguard::init::run(&request(&project)) else {
        return;
    };
    let after = installed.after.trim_start_matches('\u{feff}');
    let value: serde_json::Value = serde_json::from_str(after).expect("the merge is JSON");
    assert!(value["hooks"].is_object(), "{after}");
    std::fs::write(&settings, &installed.after).expect("written");
    let again = ctxguard::init::run(&request(&project)).expect("the merge is read again");
    assert_eq!(again.after, installed.after, "merging twice changed the file");
});
