//! What the `aamir serve` tests share: the server started as the real
//! binary on a free port (and stopped when dropped), plain HTTP requests
//! over a socket (no client library: the tests see the bytes the server
//! sends), and fixture folders of records and a match.

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const AAMIR: &str = env!("CARGO_BIN_EXE_aamir");

/// A running `aamir serve`.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    /// Starts `aamir serve --port 0 ARGS...` and reads the address it
    /// prints.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(AAMIR)
            .arg("serve")
            .args(["--port", "0", "--hash", "4"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starting aamir serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in `{line}`"))
            .to_string();
        Server { child, addr }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Sends raw bytes and returns the status and the body.
    pub fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        // A peer may close before reading a body it refuses.
        let _ = s.write_all(request);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).to_string();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in `{text}`"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    /// A request with an optional body; the status and the body.
    pub fn call(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        let body = body.unwrap_or("");
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.raw(req.as_bytes())
    }

    /// A request that must succeed, its JSON answer.
    pub fn ok(&self, method: &str, path: &str, body: Option<&str>) -> Value {
        let (status, text) = self.call(method, path, body);
        assert_eq!(status, 200, "{method} {path}: {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"))
    }

    /// A request that must be refused with `status`; its message.
    pub fn refused(&self, method: &str, path: &str, body: Option<&str>, status: u16) -> String {
        let (got, text) = self.call(method, path, body);
        assert_eq!(got, status, "{method} {path} {body:?}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error message: {text}"))
            .to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh folder under the target directory.
pub fn scratch(tag: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A folder `records/` with a movelist file and an archive of two games,
/// and a match folder `match/` as `aamir match` leaves it mid-run: two
/// finished games, a summary, and one game in progress.
pub fn fixtures(tag: &str) -> PathBuf {
    let root = scratch(tag);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let records = root.join("records");
    std::fs::create_dir_all(&records).unwrap();
    std::fs::copy(
        manifest.join("aei-examples/short-game.txt"),
        records.join("short-game.txt"),
    )
    .unwrap();
    let archive = std::fs::read_to_string(manifest.join("tests/data/games-2026-02.tsv")).unwrap();
    let mut lines = archive.lines().filter(|l| !l.starts_with('#'));
    let header = lines.next().unwrap();
    let rows: Vec<&str> = lines.take(2).collect();
    let tsv = format!("{header}\n{}\n", rows.join("\n"));
    std::fs::write(records.join("two.tsv"), &tsv).unwrap();
    let m = root.join("match");
    std::fs::create_dir_all(m.join("live")).unwrap();
    std::fs::write(m.join("games.tsv"), &tsv).unwrap();
    std::fs::write(
        m.join("summary.json"),
        r#"{"status":"interrupted","played":2,"scheduled":4}"#,
    )
    .unwrap();
    let short = std::fs::read_to_string(manifest.join("aei-examples/short-game.txt")).unwrap();
    let moves: Vec<&str> = short
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .take(5)
        .collect();
    std::fs::write(
        m.join("live/game-3.txt"),
        format!("# game 3\n# gold one\n# silver two\n{}\n", moves.join("\n")),
    )
    .unwrap();
    root
}

/// Percent-encodes a query value.
pub fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
