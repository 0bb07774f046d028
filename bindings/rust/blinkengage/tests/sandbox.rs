//! The safe crate against the local sandbox (sandbox/server.py on an ephemeral loopback port, stopped by each
//! test): offers, feed, zone ads, images, service errors and refused calls.
use blinkengage::{Config, Error, MomentsRequest, Sdk};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Sandbox {
    child: Child,
    url: String,
}

impl Sandbox {
    fn start() -> Sandbox {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../sandbox/server.py");
        let mut child = Command::new("python3")
            .args([script, "--exit-on-stdin-eof"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs the sandbox");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.trim().strip_prefix("listening on ").expect("the sandbox's first line").to_string();
        Sandbox { child, url }
    }

    fn config(&self) -> Config {
        let storage = std::env::temp_dir().join(format!("be-rust-{}-{}", std::process::id(), self.url.rsplit(':').next().unwrap()));
        Config::new("demo-key").unwrap()
            .moments_url(&format!("{}/native/v4", self.url)).unwrap()
            .engage_url(&self.url).unwrap()
            .zone_ad_url(&format!("{}/api/adAPI.php?AdID={{zone}}", self.url)).unwrap()
            .storage_dir(storage.to_str().unwrap()).unwrap()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        drop(self.child.stdin.take()); // --exit-on-stdin-eof
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `start` with a callback that sends its result here, and waits for it (once).
fn wait<T: Send + 'static>(start: impl FnOnce(Box<dyn FnOnce(Result<T, Error>) + Send>) -> Result<(), Error>) -> Result<T, Error> {
    let (done, result) = mpsc::channel();
    start(Box::new(move |r| done.send(r).unwrap())).unwrap();
    let answer = result.recv_timeout(Duration::from_secs(60)).expect("the callback ran");
    assert!(result.recv_timeout(Duration::from_millis(0)).is_err(), "exactly once");
    answer
}

#[test]
fn offers_with_fields_styles_and_creatives() {
    let sandbox = Sandbox::start();
    let sdk = Sdk::start(&sandbox.config()).unwrap();
    let request = MomentsRequest::new().payload("placement", "checkout").unwrap();
    let response = wait(|callback| sdk.fetch_moments_offers(&request, callback)).unwrap();
    let ids: Vec<&str> = response.offers().map(|offer| offer.id()).collect();
    assert_eq!(ids, ["4001", "4002", "4003"]);
    let first = response.offer(0).unwrap();
    assert_eq!(first.field("advertiser_name"), Some("Streamly"));
    assert_eq!(first.cta_yes(), Some("Claim offer"));
    let beacon = |path: &str| Some(format!("{}/b/{}", sandbox.url, path));
    assert_eq!(first.pixel_url().map(String::from), beacon("track/sdk/v2/impression/p.png?o_id=4001&sess_id=5f2c0001e1&cbuster=%7Bcbuster%7D"));
    assert_eq!(first.advertiser_pixel_url().map(String::from), beacon("adv/imp?o=4001&cb={cbuster}"));
    assert_eq!(first.close_beacon_url().map(String::from), beacon("track/event/record/close?o_id=4001&sess_id=5f2c0001e1"));
    assert_eq!(first.no_thanks_beacon_url().map(String::from), beacon("track/event/record/no_thanks_click?o_id=4001&sess_id=5f2c0001e1"));
    assert_eq!(response.style("offerText.buttonYes.background"), Some("#1A73E8"));
    let creative = first.creatives()[0];
    assert_eq!((creative.width(), creative.height(), creative.is_primary()), (600, 600, true));
    assert_eq!(creative.url(), Some(format!("{}/cdn/c/9001.png", sandbox.url).as_str()));

    let image = wait(|callback| sdk.fetch_image(creative.url().unwrap(), callback)).unwrap();
    assert!(image.data().starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(image.content_type(), Some("image/png"));
    let again = wait(|callback| sdk.fetch_image(creative.url().unwrap(), callback)).unwrap();
    assert!(again.is_from_cache());
    let kept = response.clone();
    drop(response);
    assert_eq!(kept.offer_count(), 3, "a clone keeps the response alive");
    assert_eq!(sdk.stats().unwrap().image_memory_hits, 1);
}

#[test]
fn feed_and_zone_ads() {
    let sandbox = Sandbox::start();
    let sdk = Sdk::start(&sandbox.config()).unwrap();
    sdk.set_user_identity("rust-user").unwrap();
    let feed = wait(|callback| sdk.load_offer_feed(callback)).unwrap();
    let groups: Vec<&str> = feed.groups().filter_map(|group| group.id()).collect();
    assert_eq!(groups, ["g_entertainment", "g_food"]);
    assert_eq!(feed.groups().next().unwrap().offers().count(), 2);
    let ad = wait(|callback| sdk.fetch_zone_ad("1", callback)).unwrap();
    assert!(ad.is_enabled());
    assert_eq!(ad.link_url(), Some("https://www.example.com/landing?zone=1"));
    sdk.report_zone_ad_click(&ad).unwrap();
    sdk.flush(30_000).unwrap();
    assert_eq!(sdk.stats().unwrap().events_delivered, 1);
}

#[test]
fn errors_carry_their_domain_and_code() {
    let sandbox = Sandbox::start();
    let config = sandbox.config();
    let wrong = Config::new("wrong-key").unwrap().moments_url(&format!("{}/native/v4", sandbox.url)).unwrap();
    let sdk = Sdk::start(&wrong).unwrap();
    let error = wait(|callback| sdk.fetch_moments_offers(&MomentsRequest::new(), callback)).unwrap_err();
    assert_eq!(error.domain(), Some(blinkengage::BE_MOMENTS_ERROR_DOMAIN));
    assert_eq!(error.code(), 6);
    assert!(matches!(error, Error::Service { http_status: 401, .. }));
    assert!(error.to_string().ends_with("(HTTP 401)"), "{error}");

    let image = wait(|callback| sdk.fetch_image("ftp://example.com/a.png", callback)).unwrap_err();
    assert_eq!((image.domain(), image.code()), (Some(blinkengage::BE_IMAGE_ERROR_DOMAIN), 5));

    // refused calls: an error now, and the closure is dropped, never called
    let refused = Config::new("demo-key").unwrap().moments_url("file:///etc/passwd");
    assert!(matches!(refused, Err(Error::Call { status: -1, .. })), "{:?}", refused.err());
    assert!(MomentsRequest::new().payload("bad\0key", "x").is_err());
    let no_zone_url = Sdk::start(&config).unwrap();
    drop(no_zone_url);
    let plain = Sdk::start(&Config::new("demo-key").unwrap()).unwrap();
    let (tx, rx) = mpsc::channel::<()>();
    let status = plain.fetch_zone_ad("1", move |_| tx.send(()).unwrap());
    assert!(matches!(status, Err(Error::Call { .. })));
    assert!(rx.recv_timeout(Duration::from_millis(0)).is_err());
}

#[test]
fn shutdown_runs_what_is_owed_once() {
    let sandbox = Sandbox::start();
    let sdk = Sdk::start(&sandbox.config()).unwrap();
    let (done, result) = mpsc::channel();
    sdk.fetch_zone_ad("1", move |r| done.send(r.map(|_| ())).unwrap()).unwrap();
    sdk.shutdown(0);
    let outcome = result.recv_timeout(Duration::from_secs(60)).expect("called before shutdown returned or at it");
    if let Err(error) = outcome {
        assert_eq!(error.domain(), Some(blinkengage::BE_CANCELLED_ERROR_DOMAIN));
    }
    assert!(result.recv_timeout(Duration::from_millis(0)).is_err());
}

static PANICS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// A callback that panics: caught at the C boundary (unwinding out of an extern "C" function would abort the
/// process), handed to the panic handler, and the next callback runs; an SDK dropped with a callback owed runs
/// it, cancelled, once.
#[test]
fn a_panicking_callback_and_a_dropped_sdk() {
    blinkengage::set_callback_panic_handler(Some(|message| PANICS.lock().unwrap().push(message.to_string())));
    let sandbox = Sandbox::start();
    let sdk = Sdk::start(&sandbox.config()).unwrap();
    let (ran, panicked) = mpsc::channel();
    sdk.fetch_zone_ad("1", move |_| {
        ran.send(()).unwrap();
        panic!("host bug");
    }).unwrap();
    panicked.recv_timeout(Duration::from_secs(60)).expect("the callback ran");
    let after = wait(|done| sdk.fetch_zone_ad("1", done));
    assert!(after.is_ok(), "the SDK goes on after a panic");
    assert_eq!(*PANICS.lock().unwrap(), ["host bug"], "the panic went to the handler");
    blinkengage::set_callback_panic_handler(None);
    let (done, result) = mpsc::channel();
    sdk.fetch_zone_ad("2", move |r| done.send(r.map(|_| ())).unwrap()).unwrap();
    drop(sdk);
    let outcome = result.recv_timeout(Duration::from_secs(60)).expect("owed at drop: run once");
    if let Err(error) = outcome {
        assert_eq!(error.domain(), Some(blinkengage::BE_CANCELLED_ERROR_DOMAIN));
    }
    assert!(result.recv_timeout(Duration::from_millis(0)).is_err());
}
