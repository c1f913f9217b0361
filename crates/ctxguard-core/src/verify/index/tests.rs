use super::*;
use proptest::prelude::*;

proptest! {
    /// The ids' table finds what a scan of every id finds: each id that
    /// repeats, with the first region that had it, and the first region
    /// of any id asked, wherever the search starts. Few distinct ids
    /// make entries of many regions (sorted), many make small ones.
    #[test]
    fn the_ids_table_finds_what_a_scan_finds(
        ids in prop::collection::vec(prop_oneof![
            3 => "[a-c]{0,2}",
            1 => "r[0-9]{1,5}",
            1 => Just("same".to_owned()),
        ], 0..600),
        asked in prop::collection::vec("[a-c]{0,2}|r[0-9]{1,3}|same|none", 0..20),
        near in 0usize..700,
    ) {
        let mut table = Ids::with_capacity(ids.len());
        for id in &ids {
            table.push(id);
        }
        let first = |id: &str| ids.iter().position(|other| other == id);
        let repeats: Vec<(usize, usize)> = (ids.iter().enumerate())
            .filter_map(|(t, id)| first(id).filter(|&f| f < t).map(|f| (t, f)))
            .collect();
        prop_assert_eq!(table.sort(), repeats);
        for id in asked.iter().chain(&ids) {
            prop_assert_eq!(table.find(id, near), first(id), "{}", id);
        }
    }
}

/// A large trace holds one slot and one class a region.
#[test]
fn what_the_index_keeps_of_a_region_stays_small() {
    let size = std::mem::size_of::<Slot>();
    assert!(size <= 48, "Slot takes {size} bytes");
    assert!(std::mem::size_of::<Class>() <= 8);
}

#[test]
fn spans_that_do_not_fit_a_slot_are_kept_whole() {
    let spans = Spans {
        opening: 10..20,
        id: 12..15,
        content: 30..40,
    };
    let slot = Slot::new(spans.clone(), Status::Active, true, 0, None);
    assert!(slot.detail.is_none());
    assert_eq!(slot.spans(), spans);
    // A span before the region's first line, and one past 4 GiB of it.
    for odd in [
        Spans {
            id: 5..8,
            ..spans.clone()
        },
        Spans {
            content: 30..(5 << 30),
            ..spans.clone()
        },
    ] {
        let slot = Slot::new(odd.clone(), Status::Active, true, 0, None);
        assert_eq!(slot.spans(), odd);
    }
}
