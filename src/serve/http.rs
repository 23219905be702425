//! The HTTP edge: a request read into a typed [`Req`] (method, path,
//! decoded query, a body of bounded size), answers as [`Reply`] values,
//! and [`ApiError`], the one way a handler refuses: a status and a message
//! that names what was wrong. Nothing here knows the game; the handlers
//! in `api` never touch the socket.

use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;

/// Largest request body taken: every request of the page is a few hundred
/// bytes of JSON, so anything larger is a mistake or an attack.
pub const MAX_BODY: usize = 64 * 1024;

/// A refused request: the HTTP status and what was wrong, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
    /// 400: the request itself is wrong (bad JSON, a bad square, an
    /// illegal step).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }
    /// 403: a path outside the files the server was given.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(403, message)
    }
    /// 404: no such game, job, file or route.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }
    /// 409: right request, wrong moment (not your turn, the game is over).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(409, message)
    }
}

pub type ApiResult = Result<Reply, ApiError>;

/// An answer to send.
#[derive(Debug)]
pub enum Reply {
    Json(Value),
    /// A file: its content type, body, and a download name when the
    /// browser should save it rather than show it.
    Body {
        content_type: &'static str,
        body: Vec<u8>,
        download: Option<String>,
    },
}

/// The request methods the server answers; others get 405.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

/// A request as the handlers see it.
#[derive(Debug)]
pub struct Req {
    pub method: Method,
    /// The path, percent-decoded, without the query.
    pub path: String,
    pub query: HashMap<String, String>,
    pub body: Vec<u8>,
}

impl Req {
    /// A query parameter, or a 400 naming it.
    pub fn param(&self, name: &str) -> Result<&str, ApiError> {
        self.query
            .get(name)
            .map(String::as_str)
            .ok_or_else(|| ApiError::bad(format!("missing query parameter `{name}`")))
    }

    /// An optional number in the query, or a 400 when it is not one.
    pub fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, ApiError> {
        match self.query.get(name) {
            None => Ok(None),
            Some(v) if v.is_empty() => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| ApiError::bad(format!("`{name}={v}` is not a number"))),
        }
    }

    /// The body as JSON of type `T` (an empty body reads as `{}`).
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        let body: &[u8] = if self.body.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &self.body
        };
        serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("bad JSON body: {e}")))
    }
}

/// Decodes `%XX` escapes and `+` (in queries) into text; a bad escape
/// or bytes that are not UTF-8 are refused.
pub fn percent_decode(s: &str, plus_is_space: bool) -> Result<String, ApiError> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| ApiError::bad(format!("bad percent escape in `{s}`")))?;
                out.push(hex);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| ApiError::bad(format!("`{s}` is not UTF-8 text")))
}

/// Splits a request target into its decoded path and query.
pub fn parse_target(url: &str) -> Result<(String, HashMap<String, String>), ApiError> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let mut params = HashMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        params.insert(percent_decode(k, true)?, percent_decode(v, true)?);
    }
    Ok((percent_decode(path, false)?, params))
}

/// The value of a request header, if present.
fn header_value<'a>(r: &'a tiny_http::Request, name: &str) -> Option<&'a str> {
    r.headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

/// Reads a tiny_http request into a [`Req`], refusing a body over
/// [`MAX_BODY`] (413) without reading past the limit.
///
/// `hosts`, when not empty, are the only `Host` headers taken: a page of
/// another site that renamed its host to this machine's address (DNS
/// rebinding) is refused, so it cannot read the `--games` files. A body
/// must be declared JSON, which a page of another site cannot send here
/// without the browser asking first (and the server never agrees), so it
/// cannot play moves in someone's game either.
pub fn read_request(r: &mut tiny_http::Request, hosts: &[String]) -> Result<Req, ApiError> {
    let method = match r.method() {
        tiny_http::Method::Get | tiny_http::Method::Head => Method::Get,
        tiny_http::Method::Post => Method::Post,
        m => return Err(ApiError::new(405, format!("method {m} is not served here"))),
    };
    if !hosts.is_empty() {
        let host = header_value(r, "Host").unwrap_or("");
        if !hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
            return Err(ApiError::forbidden(format!(
                "Host `{host}` is not this server's address ({})",
                hosts.join(", ")
            )));
        }
    }
    let (path, query) = parse_target(r.url())?;
    if r.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(ApiError::new(
            413,
            format!("the request body is over {MAX_BODY} bytes"),
        ));
    }
    let mut body = Vec::new();
    r.as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| ApiError::bad(format!("reading the request body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(ApiError::new(
            413,
            format!("the request body is over {MAX_BODY} bytes"),
        ));
    }
    let json = header_value(r, "Content-Type").is_some_and(|t| {
        t.trim_start()
            .to_ascii_lowercase()
            .starts_with("application/json")
    });
    if !body.iter().all(u8::is_ascii_whitespace) && !json {
        return Err(ApiError::new(
            415,
            "a request body must be JSON, sent as Content-Type: application/json",
        ));
    }
    Ok(Req {
        method,
        path,
        query,
        body,
    })
}

fn header(name: &str, value: &str) -> Option<tiny_http::Header> {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

/// Sends `result` as the answer to `r`. A peer that went away is not an
/// error worth more than a debug line.
pub fn respond(r: tiny_http::Request, result: ApiResult) {
    let (status, content_type, body, download) = match result {
        Ok(Reply::Json(v)) => (200, "application/json", v.to_string().into_bytes(), None),
        Ok(Reply::Body {
            content_type,
            body,
            download,
        }) => (200, content_type, body, download),
        Err(e) => (
            e.status,
            "application/json",
            serde_json::json!({ "error": e.message })
                .to_string()
                .into_bytes(),
            None,
        ),
    };
    let mut resp = tiny_http::Response::from_data(body).with_status_code(status);
    let mut headers = vec![
        header("Content-Type", content_type),
        // The state changes under the page: nothing may be cached.
        header("Cache-Control", "no-store"),
        header("X-Content-Type-Options", "nosniff"),
    ];
    if let Some(name) = download {
        let name: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || "-_.".contains(*c))
            .collect();
        headers.push(header(
            "Content-Disposition",
            &format!("attachment; filename=\"{name}\""),
        ));
    }
    for h in headers.into_iter().flatten() {
        resp = resp.with_header(h);
    }
    if let Err(e) = r.respond(resp) {
        log::debug!("answering a request: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_decode_and_bad_escapes_are_refused() {
        let (p, q) = parse_target("/api/record?path=runs%2Fa%20b%2Fgames.tsv&id=3&x").unwrap();
        assert_eq!(p, "/api/record");
        assert_eq!(q["path"], "runs/a b/games.tsv");
        assert_eq!(q["id"], "3");
        assert_eq!(q["x"], "");
        assert!(
            parse_target("/a?p=%zz")
                .unwrap_err()
                .message
                .contains("escape")
        );
        assert!(
            parse_target("/a?p=%ff")
                .unwrap_err()
                .message
                .contains("UTF-8")
        );
        assert!(parse_target("/a?p=%2").is_err());
    }

    #[test]
    fn bodies_parse_or_name_the_fault() {
        let req = |body: &str| Req {
            method: Method::Post,
            path: "/".into(),
            query: HashMap::new(),
            body: body.as_bytes().to_vec(),
        };
        #[derive(serde::Deserialize, Debug)]
        struct S {
            #[allow(dead_code)]
            from: String,
        }
        assert!(req(r#"{"from":"e2"}"#).json::<S>().is_ok());
        let e = req(r#"{"from":"#).json::<S>().unwrap_err();
        assert_eq!(e.status, 400);
        assert!(e.message.contains("bad JSON"), "{}", e.message);
        let e = req("{}").json::<S>().unwrap_err();
        assert!(e.message.contains("from"), "{}", e.message);
        let r = Req {
            query: [("depth".to_string(), "x".to_string())].into(),
            ..req("")
        };
        assert!(r.number::<u32>("depth").is_err());
        assert_eq!(r.number::<u32>("time").unwrap(), None);
    }
}
