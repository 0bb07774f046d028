//! The declarations match the header: bindgen, run on the header now, writes exactly the committed bindings.rs.
//! Also links and calls the library, so a declaration the library does not export fails here too.
use std::path::Path;
use std::process::Command;

#[test]
fn bindings_match_the_header() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let top = crate_dir.join("../../..");
    let fresh = std::env::temp_dir().join(format!("blinkengage-bindings-{}.rs", std::process::id()));
    let status = Command::new(top.join("scripts/rust-bindings.sh")).arg(&fresh).status()
        .expect("scripts/rust-bindings.sh needs bindgen (Debian's bindgen package)");
    assert!(status.success(), "bindgen failed");
    let generated = std::fs::read_to_string(&fresh).unwrap();
    let committed = std::fs::read_to_string(crate_dir.join("src/bindings.rs")).unwrap();
    let _ = std::fs::remove_file(&fresh);
    assert!(generated == committed, "src/bindings.rs is out of date with include/blinkengage.h: run scripts/rust-bindings.sh");
    assert!(committed.contains("pub fn be_sdk_fetch_image("));
}

#[test]
fn the_library_links_and_answers() {
    let version = unsafe { std::ffi::CStr::from_ptr(blinkengage_sys::be_version()) };
    let expected = format!("{}.{}.{}", blinkengage_sys::BE_VERSION_MAJOR, blinkengage_sys::BE_VERSION_MINOR,
                           blinkengage_sys::BE_VERSION_PATCH);
    assert_eq!(version.to_str().unwrap(), expected);
}
