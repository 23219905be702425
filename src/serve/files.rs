//! The files the server may read: those given with `--games` (files, or
//! folders and the records directly in them), and nothing else. Every
//! path a request names is resolved (`..` and links included) and must
//! fall under one of them, so `../../etc/passwd` gets a 403 however it is
//! spelt. Also the listing the page offers: the records, and the match
//! folders (`aamir match --out DIR`) to watch.

use super::http::ApiError;
use crate::board::record::parse_archive;
use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The given files and folders, resolved once at start.
#[derive(Clone, Debug, Default)]
pub struct Roots {
    roots: Vec<PathBuf>,
}

/// Record files are these in a folder: archives (`.tsv`) and movelist
/// files (`.txt`).
fn is_record_name(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("tsv") | Some("txt")
    )
}

/// A match folder holds what `aamir match --out` writes.
fn is_match_dir(p: &Path) -> bool {
    p.join("games.tsv").is_file() || p.join("summary.json").is_file() || p.join("live").is_dir()
}

impl Roots {
    /// Resolves each given path; a missing one is an error at start, not
    /// a silent empty list.
    pub fn new(paths: &[PathBuf]) -> Result<Roots> {
        let mut roots = Vec::new();
        for p in paths {
            let r = p
                .canonicalize()
                .with_context(|| format!("--games {}", p.display()))?;
            if !r.is_file() && !r.is_dir() {
                bail!("--games {}: neither a file nor a folder", p.display());
            }
            roots.push(r);
        }
        Ok(Roots { roots })
    }

    /// The path a request names, if it is one of the given files or lies
    /// under a given folder: 404 when it does not exist, 403 when it is
    /// outside.
    pub fn resolve(&self, asked: &str) -> Result<PathBuf, ApiError> {
        if asked.is_empty() || asked.contains('\0') {
            return Err(ApiError::bad("empty or invalid path"));
        }
        let outside = || {
            ApiError::forbidden(format!(
                "{asked} is outside the files this server was given (--games)"
            ))
        };
        // Judged on the spelling first, so that a path outside gets the
        // same answer whether or not something exists there.
        if !self.contains(&lexical(Path::new(asked))) {
            return Err(outside());
        }
        let real = Path::new(asked)
            .canonicalize()
            .map_err(|_| ApiError::not_found(format!("no such file: {asked}")))?;
        // And on what it really is: a link inside may point outside.
        if !self.contains(&real) {
            return Err(outside());
        }
        Ok(real)
    }

    fn contains(&self, path: &Path) -> bool {
        self.roots.iter().any(|r| {
            if r.is_dir() {
                path.starts_with(r)
            } else {
                path == r
            }
        })
    }

    /// Reads a file the request names, within the rules of [`resolve`].
    ///
    /// [`resolve`]: Roots::resolve
    pub fn read(&self, asked: &str) -> Result<(PathBuf, String), ApiError> {
        let path = self.resolve(asked)?;
        if !path.is_file() {
            return Err(ApiError::bad(format!("{asked} is not a file")));
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ApiError::bad(format!("reading {asked}: {e}")))?;
        Ok((path, text))
    }

    /// Every record file: the given files and the `.tsv`/`.txt` files
    /// directly in a given folder or in its match folders.
    pub fn record_files(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for r in &self.roots {
            if r.is_file() {
                out.push(r.clone());
                continue;
            }
            for dir in std::iter::once(r.clone()).chain(self.subdirs(r)) {
                out.extend(files_in(&dir).into_iter().filter(|p| is_record_name(p)));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Folders directly under `dir`.
    fn subdirs(&self, dir: &Path) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        v.sort();
        v
    }

    /// The match folders to watch: a given folder that is one, and the
    /// ones directly inside a given folder.
    pub fn match_dirs(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for r in self.roots.iter().filter(|r| r.is_dir()) {
            if is_match_dir(r) {
                out.push(r.clone());
            }
            out.extend(self.subdirs(r).into_iter().filter(|d| is_match_dir(d)));
        }
        out
    }

    /// The listing the page shows: each record file with its games (an
    /// archive's rows, or one game for a movelist), and the match folders.
    pub fn listing(&self) -> Value {
        let files: Vec<Value> = self
            .record_files()
            .iter()
            .map(|p| {
                let shown = p.display().to_string();
                match list_games(p) {
                    Ok(games) => json!({ "path": shown, "games": games }),
                    Err(e) => json!({ "path": shown, "error": format!("{e:#}") }),
                }
            })
            .collect();
        let matches: Vec<String> = self
            .match_dirs()
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        json!({ "files": files, "matches": matches })
    }
}

/// `path` made absolute (from the working folder) with `.` and `..`
/// worked out by their spelling, links not followed.
fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let base = if path.is_absolute() {
        PathBuf::new()
    } else {
        std::env::current_dir().unwrap_or_default()
    };
    let mut out = base;
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Files directly in `dir`, sorted.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

/// The games of one record file, as the page lists them.
pub fn list_games(path: &Path) -> Result<Vec<Value>> {
    let text = std::fs::read_to_string(path)?;
    let first = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap_or("");
    if !first.contains('\t') {
        // A movelist file: one game, no id.
        let moves = text
            .lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .count();
        if moves == 0 {
            bail!("no moves (not a record)");
        }
        return Ok(vec![
            json!({ "id": "", "gold": "", "silver": "", "result": "", "moves": moves }),
        ]);
    }
    let games = parse_archive(&text)?;
    Ok(games
        .iter()
        .map(|g| {
            json!({
                "id": g.id(),
                "gold": g.field("wusername"),
                "silver": g.field("busername"),
                "result": g.field("result"),
                "termination": g.field("termination"),
                "moves": g.moves.len(),
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_given_files_and_folders_are_readable() {
        let base = std::env::temp_dir().join(format!("aamir-serve-files-{}", std::process::id()));
        let inside = base.join("inside");
        std::fs::create_dir_all(inside.join("m1")).unwrap();
        std::fs::write(inside.join("a.txt"), "1g Ra1\n").unwrap();
        std::fs::write(inside.join("m1").join("games.tsv"), "id\tmovelist\n").unwrap();
        std::fs::write(base.join("secret.txt"), "no").unwrap();
        let roots = Roots::new(std::slice::from_ref(&inside)).unwrap();
        let a = inside.join("a.txt").display().to_string();
        assert!(roots.read(&a).is_ok());
        let sneaky = format!("{}/../secret.txt", inside.display());
        assert_eq!(roots.resolve(&sneaky).unwrap_err().status, 403);
        assert_eq!(roots.resolve("/etc/passwd").unwrap_err().status, 403);
        assert_eq!(
            roots
                .resolve(&format!("{}/nope", inside.display()))
                .unwrap_err()
                .status,
            404
        );
        assert_eq!(
            roots.match_dirs(),
            vec![inside.join("m1").canonicalize().unwrap()]
        );
        assert_eq!(roots.record_files().len(), 2);
        assert!(Roots::new(&[base.join("missing")]).is_err());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
