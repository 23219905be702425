//! Helpers shared by the integration tests, each test file taking what it
//! needs: `cli` runs the `aamir` binary as a user would, `rules` builds
//! positions and plays random legal turns.

// A test file uses only some of the helpers; the rest are not dead code.
#![allow(dead_code)]

pub mod cli;
pub mod rules;
