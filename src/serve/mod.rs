//! `aamir serve`: a local web page to play aamir, review games with its
//! analysis and watch matches live.
//!
//! The server is [`tiny_http`] on a thread per game and a few more; the page (HTML, CSS,
//! JavaScript) is compiled into the binary ([`assets`]). The page holds no
//! rules: every step, setup and turn goes to the server, which checks it
//! with the engine's own rules ([`play`]), and the engine's search runs
//! on a thread per game. Records are read only from the files given with
//! `--games` ([`files`]); reviews and their whole-game analyses are in
//! [`review`], matches in progress in [`watch`]. [`http`] turns requests
//! into typed values and refusals into 4xx answers that say what was
//! wrong; [`api`] routes them. The API is described in `docs/serve.md`.

pub mod api;
pub mod assets;
pub mod cli;
pub mod files;
pub mod http;
pub mod play;
pub mod review;
pub mod watch;

use crate::outln;
use crate::search::EngineConfig;
use anyhow::{Context, Result};
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Threads answering requests beside one per game: a game's long poll
/// holds a thread for up to ten seconds, and the other requests must not
/// wait behind them.
const SPARE_WORKERS: usize = 4;

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct Options {
    pub bind: IpAddr,
    pub port: u16,
    pub games: Vec<PathBuf>,
    pub hash_mb: usize,
    pub max_games: usize,
    pub idle: Duration,
}

/// Runs the server until the process is stopped.
pub fn run(opts: Options) -> Result<()> {
    let roots = files::Roots::new(&opts.games)?;
    let mut config = EngineConfig::default();
    config.engine.hash = opts.hash_mb;
    let app = Arc::new(api::App {
        roots,
        sessions: play::Sessions::new(config, opts.idle, opts.max_games),
        jobs: review::Jobs::new(2, opts.idle.max(Duration::from_secs(30))),
    });
    let addr = SocketAddr::new(opts.bind, opts.port);
    let listener = TcpListener::bind(addr).with_context(|| format!("listening on {addr}"))?;
    let addr = listener.local_addr()?;
    let server = Arc::new(
        tiny_http::Server::from_listener(listener, None)
            .map_err(|e| anyhow::anyhow!("starting the server on {addr}: {e}"))?,
    );
    if !opts.bind.is_loopback() {
        eprintln!(
            "warning: serving on {addr}: anyone who reaches it can play on this machine's cores and read the --games files"
        );
    }
    // The binary's hook aborts on a panic (a dead search thread must not
    // leave an AEI session running). Here a bug in one request must cost
    // that request, answered with a 500, not every game in the server.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("aamir serve: internal error: {info}");
    }));
    let reaper = Arc::clone(&app);
    std::thread::Builder::new()
        .name("reaper".into())
        .spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(500));
                reaper.sessions.reap();
                reaper.jobs.reap();
            }
        })?;
    // On a loopback address only this machine's own names for it are
    // taken as the Host (see `http::read_request`).
    let hosts: Arc<Vec<String>> = Arc::new(if opts.bind.is_loopback() {
        let port = addr.port();
        vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ]
    } else {
        Vec::new()
    });
    let mut workers = Vec::new();
    for i in 0..opts.max_games + SPARE_WORKERS {
        let (server, app, hosts) = (Arc::clone(&server), Arc::clone(&app), Arc::clone(&hosts));
        workers.push(
            std::thread::Builder::new()
                .name(format!("http {i}"))
                .spawn(move || serve_requests(&server, &app, &hosts))?,
        );
    }
    outln!("aamir serve: http://{addr}/ (Ctrl-C stops)")?;
    crate::out::flush()?;
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

/// One worker: takes requests until the server stops.
fn serve_requests(server: &tiny_http::Server, app: &api::App, hosts: &[String]) {
    loop {
        let mut rq = match server.recv() {
            Ok(rq) => rq,
            Err(e) => {
                log::warn!("accepting a request: {e}");
                // Never a busy loop on a listener that keeps failing.
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let result = http::read_request(&mut rq, hosts).and_then(|req| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| api::handle(app, &req)))
                .unwrap_or_else(|_| {
                    Err(http::ApiError::new(
                        500,
                        "internal error (a bug: the server's log has it)",
                    ))
                })
        });
        if let Err(e) = &result {
            log::info!("{} {}: {}", rq.method(), rq.url(), e.message);
        }
        http::respond(rq, result);
    }
}
