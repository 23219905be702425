//! The page, embedded in the binary: no build step, nothing fetched at
//! run time. `selftest.js` is the page's own check, loaded only when the
//! address asks for it (`?selftest=...`): the browser test drives the
//! page through it, by the same drags and keys a person uses.

pub const INDEX_HTML: &str = include_str!("assets/index.html");
pub const APP_JS: &str = include_str!("assets/app.js");
pub const APP_CSS: &str = include_str!("assets/app.css");
pub const SELFTEST_JS: &str = include_str!("assets/selftest.js");
