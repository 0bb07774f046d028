//! The README's first program, complete: offers for a checkout and the user's offer feed, with every setting the
//! feed needs.   cargo run --example offers -- MOMENTS_URL ENGAGE_URL [STORAGE_DIR]
use blinkengage::{Config, MomentsRequest, Sdk};
use std::sync::mpsc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut arguments = std::env::args().skip(1);
    let moments_url = arguments.next().ok_or("usage: offers MOMENTS_URL ENGAGE_URL [STORAGE_DIR]")?;
    let engage_url = arguments.next().ok_or("usage: offers MOMENTS_URL ENGAGE_URL [STORAGE_DIR]")?;
    // Where the SDK keeps the user's identity, queued reports and caches: a directory of the app's own.
    let storage = arguments.next().unwrap_or_else(|| format!("{}/.my-app/blinkengage", std::env::var("HOME").unwrap_or_default()));
    std::fs::create_dir_all(&storage)?;
    let config = Config::new("demo-key")?     // the publisher's API key
        .moments_url(&moments_url)?           // offers at moments like checkout
        .engage_url(&engage_url)?             // the offer feed and the events it reports
        .storage_dir(&storage)?;
    let sdk = Sdk::start(&config)?;           // callbacks run on the SDK's thread, be-callbacks
    sdk.set_user_identity("user-42")?;        // the app's own id for the user: without one the feed fails (1)

    let (offers_done, offers) = mpsc::channel();
    sdk.fetch_moments_offers(&MomentsRequest::new().payload("placement", "checkout")?, move |result| {
        let _ = offers_done.send(result);
    })?;
    let (feed_done, feed) = mpsc::channel();
    sdk.load_offer_feed(move |result| {
        let _ = feed_done.send(result);
    })?;

    match offers.recv()? {
        Ok(response) => {
            for offer in response.offers() {
                println!("{}: {}", offer.id(), offer.title().unwrap_or("-"));
            }
            println!("{} offers", response.offer_count());
        }
        Err(error) => println!("no offers: {error}"),
    }
    match feed.recv()? {
        Ok(feed) => {
            for group in feed.groups() {
                println!("{}: {} offers", group.title().unwrap_or("-"), group.offers().count());
            }
            println!("{} groups", feed.groups().count());
        }
        // Code 1: no user identity; 2: the feed is off or unreachable now (show nothing).
        Err(error) => println!("no feed ({}): {error}", error.code()),
    }
    Ok(())
}   // dropping the SDK shuts down: reports still queued are delivered for up to 2 s, the rest at the next start
