//! Safe Rust bindings of libblinkengage over its C API (`blinkengage-sys`).
//!
//! Ownership follows the C API and is checked by the compiler: [`Config`], [`MomentsRequest`] and [`Sdk`] are
//! owned and freed on drop; [`MomentsResponse`], [`OfferFeed`], [`ZoneAd`] and [`Image`] are reference counted
//! (cloning retains); an [`Offer`] or [`OfferGroup`] is borrowed from its response or feed and cannot outlive it:
//!
//! ```compile_fail
//! fn escape(response: blinkengage::MomentsResponse) -> blinkengage::Offer<'static> {
//!     response.offers().next().unwrap() // the offer borrows `response`, which is dropped here
//! }
//! ```
//!
//! Callbacks are `FnOnce + Send + 'static` closures, run exactly once on the SDK's callback thread.
//!
//! ```no_run
//! let config = blinkengage::Config::new("demo-key")?.moments_url("http://127.0.0.1:8080/native/v4")?;
//! let sdk = blinkengage::Sdk::start(&config)?;
//! let (done, wait) = std::sync::mpsc::channel();
//! sdk.fetch_moments_offers(&blinkengage::MomentsRequest::new().payload("placement", "checkout")?, move |result| {
//!     done.send(result).unwrap();
//! })?;
//! for offer in wait.recv().unwrap()?.offers() {
//!     println!("{} {}", offer.id(), offer.title().unwrap_or("-"));
//! }
//! # Ok::<(), blinkengage::Error>(())
//! ```
use blinkengage_sys as sys;
use std::ffi::{c_void, CStr, CString};
use std::fmt;
use std::marker::PhantomData;
use std::os::raw::c_char;
use std::ptr::NonNull;

/// What went wrong: a call the library refused (a `be_status` with its message), or an asynchronous failure
/// of the service (`be_error`: domain, code, message, HTTP status).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A synchronous call returned `status` (BE_ERR_*).
    Call { status: i32, message: String },
    /// A fetch or load failed: `domain` is one of the `*_ERROR_DOMAIN` constants, `code` its code.
    Service { domain: String, code: i32, message: String, http_status: i32 },
}

impl Error {
    /// The error domain of a service error (`"BlinkEngageMoments"`, ...); None for a refused call.
    pub fn domain(&self) -> Option<&str> {
        match self {
            Error::Service { domain, .. } => Some(domain),
            Error::Call { .. } => None,
        }
    }

    /// The code: the be_status of a refused call, the domain's code of a service error.
    pub fn code(&self) -> i32 {
        match self {
            Error::Call { status, .. } => *status,
            Error::Service { code, .. } => *code,
        }
    }

    fn last(status: sys::be_status) -> Error {
        Error::Call { status, message: text(unsafe { sys::be_last_error_message() }).unwrap_or("").to_string() }
    }

    fn from_c(error: *const sys::be_error) -> Error {
        let error = unsafe { &*error };
        Error::Service {
            domain: text(error.domain).unwrap_or("").to_string(),
            code: error.code,
            message: text(error.message).unwrap_or("").to_string(),
            http_status: error.http_status,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Call { status, message } => {
                let name = text(unsafe { sys::be_status_string(*status) }).unwrap_or("error");
                write!(f, "{name}: {message}")
            }
            Error::Service { domain, code, message, http_status } if *http_status != 0 => {
                write!(f, "{domain} {code}: {message} (HTTP {http_status})")
            }
            Error::Service { domain, code, message, .. } => write!(f, "{domain} {code}: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// The error domains, as `&str` (the header's macros are C strings).
pub const BE_MOMENTS_ERROR_DOMAIN: &str = "BlinkEngageMoments";
pub const BE_OFFER_FEED_ERROR_DOMAIN: &str = "BlinkEngageOfferFeed";
pub const BE_ZONE_AD_ERROR_DOMAIN: &str = "BlinkEngageZoneAd";
pub const BE_IMAGE_ERROR_DOMAIN: &str = "BlinkEngageImage";
pub const BE_CANCELLED_ERROR_DOMAIN: &str = "BlinkEngageCancelled";

/// The library's version ("0.2.0").
pub fn version() -> &'static str {
    text(unsafe { sys::be_version() }).unwrap_or("")
}

/// A borrowed C string as &str; None for NULL (the library's strings are UTF-8).
fn text<'a>(pointer: *const c_char) -> Option<&'a str> {
    if pointer.is_null() {
        None
    } else {
        unsafe { CStr::from_ptr(pointer) }.to_str().ok()
    }
}

fn c_string(value: &str) -> Result<CString, Error> {
    CString::new(value).map_err(|_| Error::Call { status: sys::be_status_BE_ERR_INVALID_ARGUMENT, message: "a string holds a NUL".into() })
}

fn check(status: sys::be_status) -> Result<(), Error> {
    if status == sys::be_status_BE_OK {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}

// ---- configuration -----------------------------------------------------------------------------------

/// `be_config`: settings [`Sdk::start`] copies. Setters consume and return it, so they chain.
pub struct Config(NonNull<sys::be_config>);

// Safe: a be_config is a plain settings record; the library allows using it from any one thread at a time.
unsafe impl Send for Config {}

impl Config {
    pub fn new(api_key: &str) -> Result<Config, Error> {
        let key = c_string(api_key)?;
        NonNull::new(unsafe { sys::be_config_new(key.as_ptr()) })
            .map(Config)
            .ok_or_else(|| Error::last(sys::be_status_BE_ERR_INVALID_ARGUMENT))
    }

    fn set(self, status: sys::be_status) -> Result<Config, Error> {
        check(status).map(|_| self)
    }

    fn set_text(self, value: &str, setter: unsafe extern "C" fn(*mut sys::be_config, *const c_char) -> sys::be_status) -> Result<Config, Error> {
        let value = c_string(value)?;
        let status = unsafe { setter(self.0.as_ptr(), value.as_ptr()) };
        self.set(status)
    }

    pub fn moments_url(self, url: &str) -> Result<Config, Error> { self.set_text(url, sys::be_config_set_moments_url) }
    pub fn engage_url(self, url: &str) -> Result<Config, Error> { self.set_text(url, sys::be_config_set_engage_url) }
    pub fn zone_ad_url(self, template: &str) -> Result<Config, Error> { self.set_text(template, sys::be_config_set_zone_ad_url) }
    pub fn storage_dir(self, path: &str) -> Result<Config, Error> { self.set_text(path, sys::be_config_set_storage_dir) }
    pub fn user_agent(self, agent: &str) -> Result<Config, Error> { self.set_text(agent, sys::be_config_set_user_agent) }
    pub fn proxy(self, url: &str) -> Result<Config, Error> { self.set_text(url, sys::be_config_set_proxy) }
    pub fn ca_file(self, path: &str) -> Result<Config, Error> { self.set_text(path, sys::be_config_set_ca_file) }
    pub fn pinned_public_key(self, pins: &str) -> Result<Config, Error> { self.set_text(pins, sys::be_config_set_pinned_public_key) }

    pub fn timeout_ms(self, milliseconds: u32) -> Result<Config, Error> {
        let status = unsafe { sys::be_config_set_timeout_ms(self.0.as_ptr(), milliseconds) };
        self.set(status)
    }

    pub fn image_cache(self, memory_bytes: u64, disk_bytes: u64) -> Result<Config, Error> {
        let status = unsafe { sys::be_config_set_image_cache(self.0.as_ptr(), memory_bytes, disk_bytes) };
        self.set(status)
    }

    pub fn feed_cache(self, max_age_s: u32) -> Result<Config, Error> {
        let status = unsafe { sys::be_config_set_feed_cache(self.0.as_ptr(), max_age_s) };
        self.set(status)
    }
}

impl Drop for Config {
    fn drop(&mut self) {
        unsafe { sys::be_config_free(self.0.as_ptr()) }
    }
}

/// `be_moments_request`: the payload and query of one Moments fetch.
pub struct MomentsRequest(NonNull<sys::be_moments_request>);

// Safe: a request is a plain record the library only reads while fetching (it copies it).
unsafe impl Send for MomentsRequest {}

impl MomentsRequest {
    pub fn new() -> MomentsRequest {
        MomentsRequest(NonNull::new(unsafe { sys::be_moments_request_new() }).expect("out of memory"))
    }

    /// Sets a payload attribute ("placement", "email", ...).
    pub fn payload(self, key: &str, value: &str) -> Result<MomentsRequest, Error> {
        let (key, value) = (c_string(key)?, c_string(value)?);
        check(unsafe { sys::be_moments_request_set_payload(self.0.as_ptr(), key.as_ptr(), value.as_ptr()) })?;
        Ok(self)
    }
}

impl Default for MomentsRequest {
    fn default() -> Self { MomentsRequest::new() }
}

impl Drop for MomentsRequest {
    fn drop(&mut self) {
        unsafe { sys::be_moments_request_free(self.0.as_ptr()) }
    }
}

// ---- reference-counted results ---------------------------------------------------------------------------

macro_rules! counted {
    ($(#[$doc:meta])* $name:ident, $raw:ty, $retain:path, $release:path) => {
        $(#[$doc])*
        pub struct $name(NonNull<$raw>);
        // Safe: the library's results are immutable and reference counted atomically; any thread may read
        // them and release them.
        unsafe impl Send for $name {}
        unsafe impl Sync for $name {}
        impl $name {
            /// Takes a reference of its own to an object the library lends for a callback.
            fn retained(raw: *mut $raw) -> $name {
                $name(NonNull::new(unsafe { $retain(raw) }).expect("the library lent NULL"))
            }
        }
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:p})", stringify!($name), self.0.as_ptr())
            }
        }
        impl Clone for $name {
            fn clone(&self) -> $name { $name::retained(self.0.as_ptr()) }
        }
        impl Drop for $name {
            fn drop(&mut self) { unsafe { $release(self.0.as_ptr()) } }
        }
    };
}

counted!(
    /// `be_moments_response`: the offers of one Moments answer and its styles.
    MomentsResponse, sys::be_moments_response, sys::be_moments_response_retain, sys::be_moments_response_release);
counted!(
    /// `be_offer_feed`: the groups of offers of one feed load.
    OfferFeed, sys::be_offer_feed, sys::be_offer_feed_retain, sys::be_offer_feed_release);
counted!(
    /// `be_zone_ad`: a legacy zone ad.
    ZoneAd, sys::be_zone_ad, sys::be_zone_ad_retain, sys::be_zone_ad_release);
counted!(
    /// `be_image`: the bytes of a fetched image, as served.
    Image, sys::be_image, sys::be_image_retain, sys::be_image_release);

impl MomentsResponse {
    pub fn offer_count(&self) -> usize { unsafe { sys::be_moments_response_offer_count(self.0.as_ptr()) } }

    pub fn offer(&self, index: usize) -> Option<Offer<'_>> {
        Offer::borrowed(unsafe { sys::be_moments_response_offer_at(self.0.as_ptr(), index) })
    }

    pub fn offers(&self) -> impl Iterator<Item = Offer<'_>> + '_ {
        (0..self.offer_count()).filter_map(move |i| self.offer(i))
    }

    /// A style by dotted path ("offerText.buttonYes.background").
    pub fn style(&self, path: &str) -> Option<&str> {
        let path = CString::new(path).ok()?;
        text(unsafe { sys::be_moments_response_style(self.0.as_ptr(), path.as_ptr()) })
    }
}

impl OfferFeed {
    pub fn id(&self) -> Option<&str> { text(unsafe { sys::be_offer_feed_id(self.0.as_ptr()) }) }
    pub fn is_cached(&self) -> bool { unsafe { sys::be_offer_feed_is_cached(self.0.as_ptr()) != 0 } }

    pub fn groups(&self) -> impl Iterator<Item = OfferGroup<'_>> + '_ {
        let count = unsafe { sys::be_offer_feed_group_count(self.0.as_ptr()) };
        (0..count).filter_map(move |i| {
            NonNull::new(unsafe { sys::be_offer_feed_group_at(self.0.as_ptr(), i) } as *mut sys::be_offer_group)
                .map(|raw| OfferGroup { raw, owner: PhantomData })
        })
    }
}

/// `be_offer_group`, borrowed from its feed.
#[derive(Clone, Copy)]
pub struct OfferGroup<'a> {
    raw: NonNull<sys::be_offer_group>,
    owner: PhantomData<&'a OfferFeed>,
}

impl<'a> OfferGroup<'a> {
    pub fn id(&self) -> Option<&'a str> { text(unsafe { sys::be_offer_group_id(self.raw.as_ptr()) }) }
    pub fn title(&self) -> Option<&'a str> { text(unsafe { sys::be_offer_group_title(self.raw.as_ptr()) }) }

    pub fn offers(&self) -> impl Iterator<Item = Offer<'a>> + 'a {
        let raw = self.raw;
        let count = unsafe { sys::be_offer_group_offer_count(raw.as_ptr()) };
        (0..count).filter_map(move |i| Offer::borrowed(unsafe { sys::be_offer_group_offer_at(raw.as_ptr(), i) }))
    }
}

/// `be_offer`, borrowed from its response or feed: it cannot outlive them.
#[derive(Clone, Copy)]
pub struct Offer<'a> {
    raw: NonNull<sys::be_offer>,
    owner: PhantomData<&'a ()>,
}

// Safe: offers are immutable parts of immutable results.
unsafe impl Send for Offer<'_> {}
unsafe impl Sync for Offer<'_> {}

impl<'a> Offer<'a> {
    fn borrowed(raw: *const sys::be_offer) -> Option<Offer<'a>> {
        NonNull::new(raw as *mut sys::be_offer).map(|raw| Offer { raw, owner: PhantomData })
    }

    fn get(&self, getter: unsafe extern "C" fn(*const sys::be_offer) -> *const c_char) -> Option<&'a str> {
        text(unsafe { getter(self.raw.as_ptr()) })
    }

    pub fn id(&self) -> &'a str { self.get(sys::be_offer_id).unwrap_or("") }
    pub fn title(&self) -> Option<&'a str> { self.get(sys::be_offer_title) }
    pub fn description(&self) -> Option<&'a str> { self.get(sys::be_offer_description) }
    pub fn image_url(&self) -> Option<&'a str> { self.get(sys::be_offer_image_url) }
    pub fn click_url(&self) -> Option<&'a str> { self.get(sys::be_offer_click_url) }
    /// The impression pixel ("pixel"). The SDK fires beacons itself; a host firing one replaces each `{cbuster}`
    /// (or `%7Bcbuster%7D`) with a fresh random number first, as the SDK does.
    pub fn pixel_url(&self) -> Option<&'a str> { self.get(sys::be_offer_pixel_url) }
    /// The advertiser's impression pixel ("adv_pixel_url"); see `pixel_url`.
    pub fn advertiser_pixel_url(&self) -> Option<&'a str> { self.get(sys::be_offer_adv_pixel_url) }
    /// The beacon of closing the offer ("beacons"."close"); see `pixel_url`.
    pub fn close_beacon_url(&self) -> Option<&'a str> { self.get(sys::be_offer_close_beacon_url) }
    /// The beacon of the negative CTA ("beacons"."no_thanks_click"); see `pixel_url`.
    pub fn no_thanks_beacon_url(&self) -> Option<&'a str> { self.get(sys::be_offer_no_thanks_beacon_url) }
    pub fn cta_yes(&self) -> Option<&'a str> { self.get(sys::be_offer_cta_yes) }
    pub fn cta_no(&self) -> Option<&'a str> { self.get(sys::be_offer_cta_no) }
    pub fn json(&self) -> Option<&'a str> { self.get(sys::be_offer_json) }

    /// Any top-level scalar by wire name ("advertiser_name", "campaign_id").
    pub fn field(&self, key: &str) -> Option<&'a str> {
        let key = CString::new(key).ok()?;
        text(unsafe { sys::be_offer_field(self.raw.as_ptr(), key.as_ptr()) })
    }

    pub fn creatives(&self) -> Vec<Creative<'a>> {
        let count = unsafe { sys::be_offer_creative_count(self.raw.as_ptr()) };
        (0..count)
            .filter_map(|i| NonNull::new(unsafe { sys::be_offer_creative_at(self.raw.as_ptr(), i) } as *mut sys::be_creative))
            .map(|raw| Creative { raw, owner: PhantomData })
            .collect()
    }
}

/// `be_creative`: one image of an offer, borrowed from it.
#[derive(Clone, Copy)]
pub struct Creative<'a> {
    raw: NonNull<sys::be_creative>,
    owner: PhantomData<&'a ()>,
}

impl<'a> Creative<'a> {
    pub fn url(&self) -> Option<&'a str> { text(unsafe { sys::be_creative_url(self.raw.as_ptr()) }) }
    pub fn width(&self) -> u32 { unsafe { sys::be_creative_width(self.raw.as_ptr()) } }
    pub fn height(&self) -> u32 { unsafe { sys::be_creative_height(self.raw.as_ptr()) } }
    pub fn kind(&self) -> Option<&'a str> { text(unsafe { sys::be_creative_type(self.raw.as_ptr()) }) }
    pub fn is_primary(&self) -> bool { unsafe { sys::be_creative_is_primary(self.raw.as_ptr()) != 0 } }
}

impl ZoneAd {
    pub fn is_enabled(&self) -> bool { unsafe { sys::be_zone_ad_is_enabled(self.0.as_ptr()) != 0 } }
    pub fn image_url(&self) -> Option<&str> { text(unsafe { sys::be_zone_ad_image_url(self.0.as_ptr()) }) }
    pub fn link_url(&self) -> Option<&str> { text(unsafe { sys::be_zone_ad_link_url(self.0.as_ptr()) }) }
}

impl Image {
    /// The bytes as served; decoding them is yours.
    pub fn data(&self) -> &[u8] {
        let size = unsafe { sys::be_image_size(self.0.as_ptr()) };
        let data = unsafe { sys::be_image_data(self.0.as_ptr()) } as *const u8;
        if size == 0 || data.is_null() { &[] } else { unsafe { std::slice::from_raw_parts(data, size) } }
    }
    pub fn content_type(&self) -> Option<&str> { text(unsafe { sys::be_image_content_type(self.0.as_ptr()) }) }
    pub fn is_from_cache(&self) -> bool { unsafe { sys::be_image_is_from_cache(self.0.as_ptr()) != 0 } }
}

// ---- the SDK -----------------------------------------------------------------------------------------

/// `be_sdk`: a running SDK; dropping it shuts it down (flushing for at most 2 s, see [`Sdk::shutdown`]).
/// Callbacks run on the SDK's own thread.
pub struct Sdk(Option<NonNull<sys::be_sdk>>);

// Safe: every be_sdk function may be called from any thread (the header's contract).
unsafe impl Send for Sdk {}
unsafe impl Sync for Sdk {}

/// Counters since start (`be_stats`).
pub type Stats = sys::be_stats;

/// A closure waiting for its one call, owned by the library between the call and the callback.
struct Pending<T>(Box<dyn FnOnce(Result<T, Error>) + Send + 'static>);

/// Where a panic in a callback goes, as in every binding: it never reaches the library (unwinding out of an
/// `extern "C"` function aborts the process) nor the caller of `Sdk::dispatch`; the handler gets its message on
/// the thread that ran the callback (after the panic hook has reported it, as for every panic), and the next
/// callback runs. `None` restores the default, which writes the message to standard error.
pub fn set_callback_panic_handler(handler: Option<fn(&str)>) {
    *PANIC_HANDLER.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = handler;
}

static PANIC_HANDLER: std::sync::RwLock<Option<fn(&str)>> = std::sync::RwLock::new(None);

/// The C callback: takes back the boxed closure and calls it with the retained result or the error; a panic in
/// the closure is caught here and handed to the panic handler (`set_callback_panic_handler`).
unsafe extern "C" fn trampoline<Raw, T>(raw: *mut Raw, error: *const sys::be_error, user_data: *mut c_void)
where
    T: FromRaw<Raw>,
{
    let pending = unsafe { Box::from_raw(user_data as *mut Pending<T>) };
    let result = if error.is_null() { Ok(T::from_raw(raw)) } else { Err(Error::from_c(error)) };
    if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || (pending.0)(result))) {
        let message = panic.downcast_ref::<&str>().map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a panic".to_string());
        match *PANIC_HANDLER.read().unwrap_or_else(|poisoned| poisoned.into_inner()) {
            Some(handler) => handler(&message),
            None => eprintln!("blinkengage: a callback panicked: {message}"),
        }
    }
}

trait FromRaw<Raw> {
    fn from_raw(raw: *mut Raw) -> Self;
}
impl FromRaw<sys::be_moments_response> for MomentsResponse {
    fn from_raw(raw: *mut sys::be_moments_response) -> Self { MomentsResponse::retained(raw) }
}
impl FromRaw<sys::be_offer_feed> for OfferFeed {
    fn from_raw(raw: *mut sys::be_offer_feed) -> Self { OfferFeed::retained(raw) }
}
impl FromRaw<sys::be_zone_ad> for ZoneAd {
    fn from_raw(raw: *mut sys::be_zone_ad) -> Self { ZoneAd::retained(raw) }
}
impl FromRaw<sys::be_image> for Image {
    fn from_raw(raw: *mut sys::be_image) -> Self { Image::retained(raw) }
}

impl Sdk {
    /// Starts an SDK from a copy of `config` (callbacks on the SDK's thread).
    pub fn start(config: &Config) -> Result<Sdk, Error> {
        check(unsafe { sys::be_config_set_callback_mode(config.0.as_ptr(), sys::be_callback_mode_BE_CALLBACKS_ON_SDK_THREAD) })?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::be_sdk_start(config.0.as_ptr(), &mut raw) })?;
        Ok(Sdk(NonNull::new(raw)))
    }

    fn raw(&self) -> *mut sys::be_sdk {
        self.0.map_or(std::ptr::null_mut(), NonNull::as_ptr)
    }

    /// Boxes `callback`, makes the call with it, and takes it back when the call is refused (no callback then).
    fn call<T, F>(&self, callback: F, start: impl FnOnce(*mut c_void) -> sys::be_status) -> Result<(), Error>
    where
        F: FnOnce(Result<T, Error>) + Send + 'static,
    {
        let pending = Box::into_raw(Box::new(Pending::<T>(Box::new(callback)))) as *mut c_void;
        let status = start(pending);
        if status != sys::be_status_BE_OK {
            drop(unsafe { Box::from_raw(pending as *mut Pending<T>) });
        }
        check(status)
    }

    pub fn fetch_moments_offers<F>(&self, request: &MomentsRequest, callback: F) -> Result<(), Error>
    where
        F: FnOnce(Result<MomentsResponse, Error>) + Send + 'static,
    {
        self.call(callback, |data| unsafe {
            sys::be_sdk_fetch_moments_offers(self.raw(), request.0.as_ptr(), Some(trampoline::<_, MomentsResponse>), data)
        })
    }

    pub fn load_offer_feed<F>(&self, callback: F) -> Result<(), Error>
    where
        F: FnOnce(Result<OfferFeed, Error>) + Send + 'static,
    {
        self.call(callback, |data| unsafe { sys::be_sdk_load_offer_feed(self.raw(), Some(trampoline::<_, OfferFeed>), data) })
    }

    pub fn fetch_zone_ad<F>(&self, zone: &str, callback: F) -> Result<(), Error>
    where
        F: FnOnce(Result<ZoneAd, Error>) + Send + 'static,
    {
        let zone = c_string(zone)?;
        self.call(callback, |data| unsafe {
            sys::be_sdk_fetch_zone_ad(self.raw(), zone.as_ptr(), Some(trampoline::<_, ZoneAd>), data)
        })
    }

    pub fn fetch_image<F>(&self, url: &str, callback: F) -> Result<(), Error>
    where
        F: FnOnce(Result<Image, Error>) + Send + 'static,
    {
        let url = c_string(url)?;
        self.call(callback, |data| unsafe { sys::be_sdk_fetch_image(self.raw(), url.as_ptr(), Some(trampoline::<_, Image>), data) })
    }

    pub fn set_user_identity(&self, user: &str) -> Result<(), Error> {
        let user = c_string(user)?;
        check(unsafe { sys::be_sdk_set_user_identity(self.raw(), user.as_ptr()) })
    }

    pub fn report_zone_ad_click(&self, ad: &ZoneAd) -> Result<(), Error> {
        check(unsafe { sys::be_sdk_report_zone_ad_click(self.raw(), ad.0.as_ptr()) })
    }

    /// `be_sdk_warm_up`: opens the connections the next fetch needs ahead of it.
    pub fn warm_up(&self) -> Result<(), Error> { check(unsafe { sys::be_sdk_warm_up(self.raw()) }) }

    /// `be_sdk_report_visibility`: `offer` is `fraction` (0 to 1) of its pixels on screen now.
    pub fn report_visibility(&self, offer: &Offer<'_>, fraction: f64) -> Result<(), Error> {
        check(unsafe { sys::be_sdk_report_visibility(self.raw(), offer.raw.as_ptr(), fraction) })
    }

    pub fn flush(&self, timeout_ms: u32) -> Result<(), Error> {
        check(unsafe { sys::be_sdk_flush(self.raw(), timeout_ms) })
    }

    pub fn stats(&self) -> Result<Stats, Error> {
        let mut stats: Stats = unsafe { std::mem::zeroed() };
        stats.struct_size = std::mem::size_of::<Stats>() as u32;
        check(unsafe { sys::be_sdk_get_stats(self.raw(), &mut stats) })?;
        Ok(stats)
    }

    /// Flushes for at most `timeout_ms`, cancels what is in flight (each callback still runs, once, with a
    /// `BlinkEngageCancelled` error) and stops. Must not be called from one of this SDK's callbacks.
    pub fn shutdown(mut self, timeout_ms: u32) {
        if let Some(raw) = self.0.take() {
            unsafe { sys::be_sdk_shutdown(raw.as_ptr(), timeout_ms) }
        }
    }
}

impl Drop for Sdk {
    fn drop(&mut self) {
        if let Some(raw) = self.0.take() {
            unsafe { sys::be_sdk_shutdown(raw.as_ptr(), 2000) }
        }
    }
}
