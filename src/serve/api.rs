//! The routes: which handler answers which method and path. The page's
//! files are answered from the binary; everything under `/api/` takes
//! and gives JSON (the game record download excepted).

use super::assets;
use super::files::Roots;
use super::http::{ApiError, ApiResult, Method, Reply, Req};
use super::play::{NewGame, Sessions};
use super::review::{self, Jobs};
use super::watch;
use serde::Deserialize;
use serde_json::json;
use std::time::Duration;

/// Longest a long poll waits for a change before answering anyway.
const LONG_POLL: Duration = Duration::from_secs(10);

/// What the handlers work on.
pub struct App {
    pub roots: Roots,
    pub sessions: Sessions,
    pub jobs: Jobs,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepBody {
    from: String,
    to: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupBody {
    setup: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisBody {
    path: String,
    #[serde(default)]
    id: Option<String>,
    depth: Option<u32>,
    time: Option<f64>,
}

fn asset(content_type: &'static str, text: &str) -> ApiResult {
    Ok(Reply::Body {
        content_type,
        body: text.as_bytes().to_vec(),
        download: None,
    })
}

/// Answers one request.
pub fn handle(app: &App, req: &Req) -> ApiResult {
    use Method::{Get, Post};
    let parts: Vec<&str> = req.path.trim_start_matches('/').split('/').collect();
    match (req.method, parts.as_slice()) {
        (Get, [""] | ["index.html"]) => asset("text/html; charset=utf-8", assets::INDEX_HTML),
        (Get, ["app.js"]) => asset("text/javascript; charset=utf-8", assets::APP_JS),
        (Get, ["app.css"]) => asset("text/css; charset=utf-8", assets::APP_CSS),
        (Get, ["selftest.js"]) => asset("text/javascript; charset=utf-8", assets::SELFTEST_JS),
        (Get, ["api", "info"]) => Ok(Reply::Json(json!({
            "version": env!("CARGO_PKG_VERSION"),
            "games_open": app.sessions.count(),
            "searching": app
                .sessions
                .shared
                .searching
                .load(std::sync::atomic::Ordering::SeqCst),
        }))),
        (Get, ["api", "games"]) => Ok(Reply::Json(app.roots.listing())),
        (Post, ["api", "play"]) => {
            let body: NewGame = req.json()?;
            let s = app.sessions.create(&body)?;
            Ok(Reply::Json(s.view()))
        }
        (Get, ["api", "play", id]) => {
            let s = app.sessions.get(id)?;
            Ok(Reply::Json(match req.number::<u64>("since")? {
                Some(v) => s.wait(v, LONG_POLL),
                None => s.view(),
            }))
        }
        (Get, ["api", "play", id, "record"]) => {
            let s = app.sessions.get(id)?;
            Ok(Reply::Body {
                content_type: "text/plain; charset=utf-8",
                body: s.record_text().into_bytes(),
                download: Some(format!("aamir-{id}.txt")),
            })
        }
        (Post, ["api", "play", id, action]) => {
            if *action == "close" {
                app.sessions.close(id)?;
                return Ok(Reply::Json(json!({ "closed": id })));
            }
            let s = app.sessions.get(id)?;
            let v = match *action {
                "setup" => s.setup(&req.json::<SetupBody>()?.setup)?,
                "step" => {
                    let b: StepBody = req.json()?;
                    s.step(&b.from, &b.to)?
                }
                "undo" => s.undo()?,
                "end" => s.end_turn()?,
                "takeback" => s.takeback()?,
                other => return Err(ApiError::not_found(format!("no action `{other}`"))),
            };
            Ok(Reply::Json(v))
        }
        (Get, ["api", "record"]) => {
            let moves = review::load(
                &app.roots,
                req.param("path")?,
                req.query.get("id").map(String::as_str),
            )?;
            Ok(Reply::Json(review::record_view(&moves)))
        }
        (Get, ["api", "position"]) => {
            let moves = review::load(
                &app.roots,
                req.param("path")?,
                req.query.get("id").map(String::as_str),
            )?;
            let ply = req
                .number::<usize>("ply")?
                .ok_or_else(|| ApiError::bad("missing query parameter `ply`"))?;
            Ok(Reply::Json(review::analyse_position(
                &app.sessions.shared.config,
                &moves,
                ply,
                req.number("depth")?,
                req.number("time")?,
            )?))
        }
        (Post, ["api", "analysis"]) => {
            let b: AnalysisBody = req.json()?;
            let moves = review::load(&app.roots, &b.path, b.id.as_deref())?;
            let id = app
                .jobs
                .start(&app.sessions.shared.config, moves, b.depth, b.time)?;
            Ok(Reply::Json(app.jobs.view(&id)?))
        }
        (Get, ["api", "analysis", id]) => Ok(Reply::Json(app.jobs.view(id)?)),
        (Get, ["api", "match"]) => Ok(Reply::Json(watch::match_view(
            &app.roots,
            req.param("path")?,
        )?)),
        (Post, _) if parts.first() != Some(&"api") => Err(ApiError::new(
            405,
            format!("POST {} is not served here", req.path),
        )),
        _ => Err(ApiError::not_found(format!(
            "no route {} {}",
            if req.method == Get { "GET" } else { "POST" },
            req.path
        ))),
    }
}
