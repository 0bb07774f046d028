//! Finds libblinkengage: `BLINKENGAGE_LIB_DIR` (a folder with libblinkengage.so), else pkg-config's
//! `blinkengage` (make install writes blinkengage.pc), else, when this crate is built inside its repository,
//! the `dist/lib` that `make dist` writes (said in a warning), else the linker's default path. The folder found
//! is also the run-time search path of what links this crate, so tests and examples run without LD_LIBRARY_PATH.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=BLINKENGAGE_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let directory = env::var("BLINKENGAGE_LIB_DIR").ok().filter(|d| !d.is_empty()).or_else(|| {
        let output = Command::new("pkg-config").args(["--variable=libdir", "blinkengage"]).output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        output.status.success().then(|| text.trim().to_string()).filter(|d| !d.is_empty())
    }).or_else(|| {
        // bindings/rust/blinkengage-sys -> the repository's dist/lib, when make dist has written it.
        let manifest = env::var("CARGO_MANIFEST_DIR").ok()?;
        let dist = std::path::Path::new(&manifest).join("../../../dist/lib");
        let dist = dist.canonicalize().ok().filter(|d| d.join("libblinkengage.so").exists())?;
        let dist = dist.to_str()?.to_string();
        println!("cargo:warning=libblinkengage from this repository's {dist} (make dist); set BLINKENGAGE_LIB_DIR or install blinkengage.pc to choose another");
        Some(dist)
    });
    println!("cargo:rerun-if-changed=../../../dist/lib/libblinkengage.so");
    if let Some(directory) = directory {
        println!("cargo:rustc-link-search=native={directory}");
        println!("cargo:rustc-link-arg=-Wl,-rpath,{directory}");
        // `links = "blinkengage"`: crates that depend on this one read it as DEP_BLINKENGAGE_LIBDIR.
        println!("cargo:libdir={directory}");
    }
    println!("cargo:rustc-link-lib=dylib=blinkengage");
}
