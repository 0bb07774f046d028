//! Prints the offers of a placement: cargo run --example offers -- MOMENTS_URL [KEY] [PLACEMENT]
use blinkengage::{Config, MomentsRequest, Sdk};
use std::sync::mpsc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut arguments = std::env::args().skip(1);
    let url = arguments.next().ok_or("usage: offers MOMENTS_URL [KEY] [PLACEMENT]")?;
    let key = arguments.next().unwrap_or_else(|| "demo-key".into());
    let placement = arguments.next().unwrap_or_else(|| "checkout".into());
    let sdk = Sdk::start(&Config::new(&key)?.moments_url(&url)?)?;
    let (done, answer) = mpsc::channel();
    sdk.fetch_moments_offers(&MomentsRequest::new().payload("placement", &placement)?, move |result| {
        let _ = done.send(result);
    })?;
    let response = answer.recv()??;
    for offer in response.offers() {
        println!("{:>6}  {}  ({})", offer.id(), offer.title().unwrap_or("-"), offer.field("advertiser_name").unwrap_or("-"));
    }
    println!("{} offers", response.offer_count());
    Ok(())
}
