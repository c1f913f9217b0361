//! The importers are linear in the session file and what its compactions'
//! buffers hold: on each hostile shape (`tests/support/hostile_sessions.rs`)
//! the work counted at 10 and 100 times a size grows as the size does, and
//! what each import hands back grows no faster. Work is counted, not timed:
//! a step is a record visited on a walk or a field looked up.

#[path = "support/hostile_sessions.rs"]
#[allow(dead_code)]
mod hostile_sessions;

use hostile_sessions::SHAPES;

/// The work an import of `text` took, and the messages its events hold.
fn import(name: &str, text: String) -> (u64, usize) {
    let file = ctxguard::SourceFile::new(name, text);
    let before = ctxguard::import::import_work();
    let session = ctxguard::import::import(&file, None).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let work = ctxguard::import::import_work() - before;
    let held = session.events.iter().map(|e| e.trace.len() + 1).sum();
    assert!(!session.events.is_empty(), "{name}: no compaction found");
    (work, held)
}

#[test]
fn every_hostile_shape_is_imported_in_work_linear_in_its_size() {
    let base = 100;
    for shape in SHAPES {
        let sizes = [base, base * 10, base * 100];
        let measured: Vec<(usize, u64, usize)> = sizes
            .iter()
            .map(|&n| {
                let (work, held) = import(shape.name, (shape.session)(n));
                (n, work, held)
            })
            .collect();
        let (n0, work0, held0) = measured[0];
        for &(n, work, held) in &measured[1..] {
            let grew = (n / n0) as f64;
            // Linear, with room for a logarithm and constant terms; a square
            // would be 10 and 100 times over.
            assert!(
                (work as f64) <= (work0 as f64) * grew * 1.5,
                "{}: {work} steps at {n} against {work0} at {n0}: {measured:?}",
                shape.name
            );
            assert!(
                (held as f64) <= (held0 as f64) * grew * 1.5,
                "{}: its events hold {held} messages at {n} against {held0} at {n0}",
                shape.name
            );
        }
    }
}
