//! The committed match openings (`tests/data/openings.txt`, made by
//! `scripts/make_openings.py`): enough of them, all different, each both
//! setups and the first two turns, every one legal and leaving the game
//! open (the match's own reader replays them through the rules).

use aamir::arena::schedule::parse_openings;
use std::collections::HashSet;

#[test]
fn the_openings_are_many_varied_legal_and_two_turns_deep() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/openings.txt");
    let openings = parse_openings(&text).expect("every opening replays");
    assert!(openings.len() >= 200, "{} openings", openings.len());
    let distinct: HashSet<&Vec<String>> = openings.iter().collect();
    assert_eq!(distinct.len(), openings.len(), "an opening repeats");
    for (i, o) in openings.iter().enumerate() {
        assert_eq!(
            o.len(),
            4,
            "opening {} is not two setups and two turns",
            i + 1
        );
    }
    // Varied: most setups differ, on both sides.
    let gold: HashSet<&String> = openings.iter().map(|o| &o[0]).collect();
    let silver: HashSet<&String> = openings.iter().map(|o| &o[1]).collect();
    assert!(
        gold.len() * 2 > openings.len(),
        "{} gold setups",
        gold.len()
    );
    assert!(
        silver.len() * 2 > openings.len(),
        "{} silver setups",
        silver.len()
    );
}
