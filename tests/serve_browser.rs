//! `aamir serve` in a real browser: headless Chromium loads the page and
//! runs its self-test (`?selftest=play|review|watch`, in
//! `src/serve/assets/selftest.js`), which plays a setup and two turns
//! against the engine by dragging pieces, reviews a record with the
//! keyboard and its analysis, and watches a match folder, each time
//! reading back what is drawn. The outcome comes back in the page's
//! title, read from Chromium's DevTools endpoint (`/json/list`, plain
//! HTTP: no WebSocket client needed).
//!
//! The browser is `AAMIR_CHROMIUM`, else `chromium`, `chromium-browser`
//! or `google-chrome` on the PATH (`.ci/run` installs Debian's `chromium`
//! when it is missing). With none, the test says so and passes on a
//! developer's machine, and fails under CI (`CI` set), where a browser
//! must be there.

mod serve_kit;

use serde_json::Value;
use serve_kit::{Server, enc, fixtures, scratch};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn browser() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("AAMIR_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// A headless browser on one page, killed with its helpers when dropped.
struct Browser {
    child: Child,
    profile: PathBuf,
}

impl Browser {
    fn open(exe: &Path, url: &str, tag: &str) -> Browser {
        let profile = scratch(&format!("chromium-{tag}"));
        let child = own_group(
            Command::new(exe)
                .args([
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--no-first-run",
                    "--disable-dev-shm-usage",
                    "--window-size=1300,1000",
                    "--remote-debugging-port=0",
                ])
                .arg(format!("--user-data-dir={}", profile.display()))
                .arg(url)
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        )
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", exe.display()));
        Browser { child, profile }
    }

    /// The DevTools port, from the file Chromium writes when it is up.
    fn port(&self, deadline: Instant) -> u16 {
        loop {
            if let Ok(t) = std::fs::read_to_string(self.profile.join("DevToolsActivePort"))
                && let Some(p) = t.lines().next().and_then(|l| l.trim().parse().ok())
            {
                return p;
            }
            assert!(Instant::now() < deadline, "Chromium did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The page's title once it starts with `selftest `.
    fn outcome(&self, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        let port = self.port(deadline);
        loop {
            if let Some(t) = page_titles(port)
                .into_iter()
                .find(|t| t.starts_with("selftest "))
            {
                return t;
            }
            assert!(Instant::now() < deadline, "the self-test did not finish");
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// Starts the browser in its own process group, so that its helper
/// processes are ended with it.
fn own_group(cmd: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0)
}

impl Drop for Browser {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the browser's own process group (its pid).
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

/// The titles of the pages open in the browser.
fn page_titles(port: u16) -> Vec<String> {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return Vec::new();
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    let req =
        format!("GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if s.write_all(req.as_bytes()).is_err() {
        return Vec::new();
    }
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let list: Vec<Value> = serde_json::from_str(body).unwrap_or_default();
    list.iter()
        .filter(|t| t["type"] == "page")
        .filter_map(|t| t["title"].as_str().map(str::to_string))
        .collect()
}

/// Runs one self-test and checks its report: passed, with at least
/// `min_checks` checks made.
fn self_test(exe: &Path, server: &Server, query: &str, min_checks: usize) {
    let url = server.url(&format!("/{query}"));
    let b = Browser::open(
        exe,
        &url,
        query
            .split('&')
            .next()
            .unwrap_or("x")
            .trim_start_matches("?selftest="),
    );
    let title = b.outcome(Duration::from_secs(240));
    // DevTools hands titles out HTML-escaped.
    let title = title
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let json = title
        .split_once(' ')
        .and_then(|(_, r)| r.split_once(' '))
        .map_or("", |(_, j)| j);
    let report: Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{query}: {e}: `{title}`"));
    assert_eq!(report["ok"], true, "{query}: {report:#}");
    let passed = report["passed"].as_array().unwrap();
    assert!(passed.len() >= min_checks, "{query}: only {passed:?}");
    eprintln!("{query}: {} checks passed", passed.len());
}

#[test]
fn the_page_plays_reviews_and_watches_in_chromium() {
    let Some(exe) = browser() else {
        let msg = "no Chromium (chromium, chromium-browser or google-chrome, or AAMIR_CHROMIUM): the browser test did not run";
        if std::env::var_os("CI").is_some() {
            panic!("{msg}; CI must have one (.ci/run installs it)");
        }
        eprintln!("skipped: {msg}");
        return;
    };
    let dir = fixtures("browser");
    let server = Server::start(&["--games", dir.to_str().unwrap()]);
    self_test(&exe, &server, "?selftest=play&strength=d2", 18);
    let short = dir.join("records/short-game.txt");
    self_test(
        &exe,
        &server,
        &format!(
            "?selftest=review&tab=review&depth=d2&path={}#review",
            enc(short.to_str().unwrap())
        ),
        8,
    );
    let m = dir.join("match");
    self_test(
        &exe,
        &server,
        &format!(
            "?selftest=watch&tab=watch&path={}#watch",
            enc(m.to_str().unwrap())
        ),
        5,
    );
}
