//! Run-time search path for this crate's tests and examples: the folder blinkengage-sys linked against
//! (link arguments of a dependency's build script do not reach its dependents).
fn main() {
    if let Ok(directory) = std::env::var("DEP_BLINKENGAGE_LIBDIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{directory}");
    }
}
